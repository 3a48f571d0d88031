import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, d, max_len=1024):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.pos_emb = nn.Embedding(max_len, d)
        self.cache = None
        self.steps = torch.arange(max_len)  # __init__: built once

    def forward(self, x):
        B, T, C = x.shape
        # Positions and a mask built on the device: a kernel each, measured
        # 1.00-1.02× per training step against cached buffers: not reported.
        pos = torch.arange(T, device=x.device)
        x = x + self.pos_emb(pos)
        mask = torch.triu(torch.ones(T, T, device=x.device, dtype=torch.bool), diagonal=1)
        like = torch.ones_like(x[0, :, :T]).tril()  # follows x: on the device
        # Built on the host and copied every forward: reported.
        other = torch.ones(T, T).tril()  # want: CACHE001
        host = torch.triu(torch.full((T, T), float("-inf")), 1).to(x.device)  # want: CACHE001
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        att = (q @ k.transpose(-2, -1)).masked_fill(mask, float("-inf"))
        if self.cache is None or self.cache.size(0) < T:
            self.cache = torch.triu(torch.ones(T, T), 1)
        self.last = torch.arange(T)
        return F.softmax(att, -1) @ v + other.sum() + like.sum() + host.sum()


class NotAModule:
    def forward(self, T):
        return torch.arange(T)


def forward(T):
    return torch.triu(torch.ones(T, T), 1)


class Helper(nn.Module):
    def helper(self, T):
        return torch.arange(T)

    def forward(self, x):
        lower = torch.tril(x)  # not a fresh mask
        return lower
