# gpuopt-env: target-gpu=h100
# The Nature DQN network (convolutions of 32 and 64 channels, a 3136x512
# layer, one output per action of the environment) and a soft Q-network of
# 256-wide layers whose input is the environment's observation size. Both
# ran 0.70-0.85x with autocast on an H100: no finding.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def layer_init(layer, std=np.sqrt(2), bias_const=0.0):
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class QNetwork(nn.Module):
    def __init__(self, env):
        super().__init__()
        self.network = nn.Sequential(
            layer_init(nn.Conv2d(4, 32, 8, stride=4)),
            nn.ReLU(),
            layer_init(nn.Conv2d(32, 64, 4, stride=2)),
            nn.ReLU(),
            layer_init(nn.Conv2d(64, 64, 3, stride=1)),
            nn.ReLU(),
            nn.Flatten(),
            layer_init(nn.Linear(3136, 512)),
            nn.ReLU(),
            layer_init(nn.Linear(512, env.single_action_space.n)),
        )

    def forward(self, x):
        return self.network(x / 255.0)


class SoftQNetwork(nn.Module):
    def __init__(self, env):
        super().__init__()
        obs = np.array(env.single_observation_space.shape).prod()
        self.fc1 = nn.Linear(obs + np.prod(env.single_action_space.shape), 256)
        self.fc2 = nn.Linear(256, 256)
        self.fc3 = nn.Linear(256, 1)

    def forward(self, x, a):
        x = F.relu(self.fc1(torch.cat([x, a], 1)))
        return self.fc3(F.relu(self.fc2(x)))


def train_dqn(envs, rb, steps):
    q_network = QNetwork(envs).to(device)
    target = QNetwork(envs).to(device)
    optimizer = torch.optim.Adam(q_network.parameters(), lr=1e-4, fused=True)
    for step in range(steps):
        data = rb.sample(32)
        with torch.no_grad():
            target_max, _ = target(data.next_observations).max(dim=1)
            td_target = data.rewards.flatten() + 0.99 * target_max * (1 - data.dones.flatten())
        old_val = q_network(data.observations).gather(1, data.actions).squeeze()
        loss = F.mse_loss(td_target, old_val)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_critic(envs, rb, steps):
    qf = SoftQNetwork(envs).to(device)
    optimizer = torch.optim.Adam(qf.parameters(), lr=3e-4, fused=True)
    for step in range(steps):
        data = rb.sample(256)
        value = qf(data.observations, data.actions).view(-1)
        loss = F.mse_loss(value, data.rewards.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
