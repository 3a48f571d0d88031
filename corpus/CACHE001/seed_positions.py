import torch
import torch.nn as nn


# Seed 000, "Position Embedding Cache" / "Attention Mask Cache": the before
# form the seed's cache replaces. gpuopt reports the host-built mask; the
# fix is not written for the user (where the cache lives is a design
# choice). The positions, built on the device, cost one kernel: measured
# 1.00-1.01× per step (corpus/gpu/cache001_arange.py), not reported.
class Model(nn.Module):
    def __init__(self, d=64, max_len=1024):
        super().__init__()
        self.pos_embed = nn.Embedding(max_len, d)

    def forward(self, x):
        T = x.size(1)
        positions = torch.arange(T, device=x.device)
        mask = torch.triu(torch.ones(T, T), diagonal=1).bool()  # want: CACHE001
        return self.pos_embed(positions), mask.to(x.device)
