# A sparse mixture of experts whose routing takes data-dependent shapes
# (`nonzero` per expert), two submodules down the trained model (through
# an nn.Sequential of blocks): torch.compile breaks its graph there on
# every step, so no compile hint (blind sample S25K's makeMoE).
import torch
import torch.nn as nn
import torch.nn.functional as F


class SparseMoE(nn.Module):
    def __init__(self, dim, experts=8, k=2):
        super().__init__()
        self.router = nn.Linear(dim, experts)
        self.experts = nn.ModuleList(nn.Linear(dim, dim) for _ in range(experts))
        self.k = k

    def forward(self, x):
        gates = F.softmax(self.router(x), dim=-1)
        top, idx = gates.topk(self.k, dim=-1)
        out = torch.zeros_like(x)
        for i, expert in enumerate(self.experts):
            rows = (idx == i).any(-1).nonzero(as_tuple=True)[0]
            if rows.numel() > 0:
                out[rows] += expert(x[rows])
        return out


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.moe = SparseMoE(dim)

    def forward(self, x):
        return x + self.moe(self.norm(x))


class MoEModel(nn.Module):
    def __init__(self, dim=512, layers=4):
        super().__init__()
        self.blocks = nn.Sequential(*[Block(dim) for _ in range(layers)])
        self.head = nn.Linear(dim, 10)

    def forward(self, x):
        return self.head(self.blocks(x))


def main(loader):
    model = MoEModel().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, fused=True)
    for x, y in loader:
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = F.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main([])
