# gpuopt-env: target-gpu=h100
# Widths read from a configuration dataclass (makemore's and nanoGPT's
# idiom): `config.n_embd` is the keyword the construction passes, else the
# field's default. The 64-wide network is narrow (no finding); the
# 2048-wide one is large (the wrap, with its fix).
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class ModelConfig:
    vocab_size: int = 27
    n_embd: int = 64


class CharMLP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.fc = nn.Linear(config.n_embd, config.n_embd)
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size)

    def forward(self, idx):
        return self.lm_head(F.gelu(self.fc(self.wte(idx))))


def train(model, steps):
    opt = torch.optim.AdamW(model.parameters(), fused=True)
    for step in range(steps):
        idx = torch.randint(0, 27, (32, 16), device="cuda")
        logits = model(idx)  # want: AMP004
        loss = F.cross_entropy(logits.view(-1, 27), idx.view(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()


small = CharMLP(ModelConfig(vocab_size=27)).cuda()
opt = torch.optim.AdamW(small.parameters(), fused=True)
for step in range(100):
    idx = torch.randint(0, 27, (32, 16), device="cuda")
    loss = F.cross_entropy(small(idx).view(-1, 27), idx.view(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()

train(CharMLP(ModelConfig(vocab_size=50304, n_embd=2048)).cuda(), 100)
