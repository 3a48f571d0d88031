# gpuopt-env: target-gpu=h100
# TD3's agent: networks held on self, moved to the device on assignment,
# each optimizer built over self.<net>.parameters() right after.
import copy

import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class TD3:
    def __init__(self, state_dim, action_dim):
        self.actor = nn.Sequential(nn.Linear(state_dim, 256), nn.ReLU(), nn.Linear(256, action_dim)).to(device)
        self.actor_target = copy.deepcopy(self.actor)
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters(), lr=3e-4)  # want: OPT001
        self.critic = nn.Sequential(nn.Linear(state_dim + action_dim, 256), nn.ReLU(), nn.Linear(256, 1))
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=3e-4)
