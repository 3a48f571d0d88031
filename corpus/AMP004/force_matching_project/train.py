# A SchNet-style potential trained on energies and forces (blind sample
# S37D's SchNet trainers): the targets are absolute energies of about
# -11,000 eV judged to meV and forces through a double backward, which
# bf16's 8-bit mantissa cannot resolve; atomistic codes train in fp32.
# No autocast advice, although the step runs in fp32 on CUDA.
import torch
import torch.nn as nn

from forces import energy_force_loss


class Interaction(nn.Module):
    def __init__(self, width=4096):
        super().__init__()
        self.filter = nn.Sequential(nn.Linear(300, width), nn.Softplus(), nn.Linear(width, width))
        self.dense = nn.Linear(width, width)

    def forward(self, h, rbf):
        return h + self.dense(h * self.filter(rbf))


class Potential(nn.Module):
    def __init__(self, width=4096, blocks=6):
        super().__init__()
        self.embed = nn.Embedding(100, width)
        self.blocks = nn.ModuleList(Interaction(width) for _ in range(blocks))
        self.out = nn.Sequential(nn.Linear(width, width // 2), nn.Softplus(), nn.Linear(width // 2, 1))

    def forward(self, z, positions):
        d = torch.cdist(positions, positions)
        rbf = torch.exp(-(d.unsqueeze(-1) - torch.linspace(0, 5, 300, device=d.device)) ** 2).sum(2)
        h = self.embed(z)
        for block in self.blocks:
            h = block(h, rbf)
        return self.out(h).sum(dim=(1, 2))


def main(loader, epochs=100):
    device = torch.device("cuda")
    model = Potential().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)
    for epoch in range(epochs):
        for z, positions, energy_ref, forces_ref in loader:
            z, energy_ref, forces_ref = z.to(device), energy_ref.to(device), forces_ref.to(device)
            positions = positions.to(device).requires_grad_()
            energy = model(z, positions)
            loss = energy_force_loss(energy, positions, energy_ref, forces_ref)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
