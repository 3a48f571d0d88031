import gym

ACTIONS = [["NOOP"], ["right"], ["right", "A"], ["right", "B"], ["right", "A", "B"], ["A"], ["left"]]


class MultipleEnvironments:
    def __init__(self, world, num_envs):
        self.envs = [gym.make(world) for _ in range(num_envs)]
        self.num_states = 4
        self.num_actions = len(ACTIONS)
