# gpuopt-env: target-gpu=h100
# A PPO trainer whose environments live in a sibling module that imports
# gym (blind sample S17D's Super Mario PPO): --batch_size counts the
# minibatches each rollout is split into, and the GPU waits for the
# environments, so no batch-size advice.
import argparse

import torch
import torch.nn as nn

from env import MultipleEnvironments

parser = argparse.ArgumentParser()
parser.add_argument("--batch_size", type=int, default=16)
parser.add_argument("--num_processes", type=int, default=8)
parser.add_argument("--num_local_steps", type=int, default=512)
opt = parser.parse_args()

envs = MultipleEnvironments("SuperMarioBros-1-1-v0", opt.num_processes)
model = nn.Sequential(nn.Conv2d(4, 32, 3, stride=2), nn.ReLU(), nn.Flatten(), nn.LazyLinear(7)).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)
states = torch.randn(opt.num_local_steps * opt.num_processes, 4, 84, 84, device="cuda")
for episode in range(1000):
    indice = torch.randperm(opt.num_local_steps * opt.num_processes, device="cuda")
    for j in range(opt.batch_size):
        batch = indice[j * (opt.num_local_steps * opt.num_processes // opt.batch_size):(j + 1) * (opt.num_local_steps * opt.num_processes // opt.batch_size)]
        loss = model(states[batch]).logsumexp(dim=1).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
