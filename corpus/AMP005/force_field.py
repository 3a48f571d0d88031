# A potential trained on forces, the gradient of its energy with respect
# to the atom positions (`torch.autograd.grad(energy, batch.pos, ...)`):
# force-field codes keep fp32 matmuls, since TF32's 10-bit mantissa shows
# in the force error they are judged on (blind sample S37D). No TF32
# advice, although the wide layers would run faster.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 4096), nn.SiLU(), nn.Linear(4096, 4096), nn.SiLU(), nn.Linear(4096, 1)).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)


def train(loader, epochs):
    for epoch in range(epochs):
        for batch in loader:
            batch = batch.to("cuda")
            batch.pos.requires_grad_(True)
            energy = model(batch.pos).sum()
            forces = -torch.autograd.grad(energy, batch.pos, create_graph=True)[0]
            loss = (energy - batch.energy) ** 2 + ((forces - batch.forces) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
