# gpuopt-env: target-gpu=h100
# A PPO agent whose action count comes from environments a gym module
# builds (`envs.num_actions`, blind sample S17D's Super Mario PPO): its
# head is as narrow as Gym's action spaces, the network is narrow, and
# neither autocast nor torch.compile pays.
import torch

from env import MultipleEnvironments
from model import PPO

envs = MultipleEnvironments("SuperMarioBros-1-1-v0", 8)
model = PPO(envs.num_states, envs.num_actions).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)
states = torch.randn(4096, 4, 84, 84, device="cuda")
for episode in range(1000):
    for batch in torch.randperm(4096, device="cuda").split(256):
        logits, value = model(states[batch])
        loss = logits.logsumexp(dim=1).mean() + value.pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
