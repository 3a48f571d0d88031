# gpuopt-env: target-gpu=h100
# Widths read from the defaults of a configuration dataclass that the
# entry point's parameter is annotated with (`def train(config:
# TrainConfig)`, pyrallis's idiom in CORL's Decision Transformer): d 128
# with a 512-wide feed-forward is narrow by AMP004's measurements, so no
# finding (blind sample S18R).
from dataclasses import dataclass

import pyrallis
import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainConfig:
    embedding_dim: int = 128
    num_heads: int = 1
    update_steps: int = 100_000


class Block(nn.Module):
    def __init__(self, embedding_dim, num_heads):
        super().__init__()
        self.attention = nn.MultiheadAttention(embedding_dim, num_heads, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(embedding_dim, 4 * embedding_dim), nn.GELU(), nn.Linear(4 * embedding_dim, embedding_dim))

    def forward(self, x):
        x = x + self.attention(x, x, x)[0]
        return x + self.mlp(x)


@pyrallis.wrap()
def train(config: TrainConfig):
    model = Block(embedding_dim=config.embedding_dim, num_heads=config.num_heads).cuda()
    optim = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    for step in range(config.update_steps):
        x = torch.randn(64, 60, config.embedding_dim, device="cuda")
        loss = F.mse_loss(model(x), x)
        optim.zero_grad()
        loss.backward()
        optim.step()


if __name__ == "__main__":
    train()
