import gym
import numpy as np


class MultipleEnvironments:
    """Runs several game environments; the trainer never imports gym itself."""

    def __init__(self, world, num_envs):
        self.envs = [gym.make(world) for _ in range(num_envs)]

    def reset(self):
        return np.stack([env.reset() for env in self.envs])
