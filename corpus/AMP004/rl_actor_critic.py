# gpuopt-env: target-gpu=h100
# PPO's actor-critic: 64-wide layers whose outer sizes (state_dim,
# action_dim) come from the environment at run time, run through a method
# of the network (policy.evaluate): narrow, so there is no finding.
import torch
import torch.nn as nn


class ActorCritic(nn.Module):
    def __init__(self, state_dim, action_dim):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(state_dim, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, action_dim))
        self.critic = nn.Sequential(nn.Linear(state_dim, 64), nn.Tanh(), nn.Linear(64, 1))

    def evaluate(self, state, action):
        logits = self.actor(state)
        dist = torch.distributions.Categorical(logits=logits)
        return dist.log_prob(action), self.critic(state), dist.entropy()


class PPO:
    def __init__(self, state_dim, action_dim):
        self.policy = ActorCritic(state_dim, action_dim).cuda()
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=3e-4, fused=True)
        self.MseLoss = nn.MSELoss()

    def update(self, states, actions, returns, epochs=80):
        for _ in range(epochs):
            logprobs, values, entropy = self.policy.evaluate(states, actions)
            values = torch.squeeze(values)
            loss = -(logprobs * (returns - values)).mean() + 0.5 * self.MseLoss(values, returns) - 0.01 * entropy.mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
