# gpuopt-env: target-gpu=h100
# DQN: the batch sampled from the replay buffer is part of the algorithm, and
# the GPU waits for the environment: no batch-size advice.
import random
from collections import deque

import torch
import torch.nn as nn

device = torch.device("cuda")
batch_size = 32
replay_buffer = deque(maxlen=1000)
model = nn.Linear(4, 2).to(device)
optimizer = torch.optim.Adam(model.parameters())
for frame in range(10000):
    replay_buffer.append((torch.randn(4), random.randrange(2)))
    if len(replay_buffer) > batch_size:
        batch = random.sample(replay_buffer, batch_size)
        state = torch.stack([s for s, _ in batch]).to(device)
        loss = model(state).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
