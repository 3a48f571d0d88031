# A small ViT whose widths come from the config dict the training script
# writes: attention heads in a ModuleList called in a comprehension, an
# activation module with no __init__, a class token added to the patches.
import math

import torch
import torch.nn as nn


class GELU(nn.Module):
    def forward(self, x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x.pow(3))))


class Head(nn.Module):
    def __init__(self, hidden, head_size):
        super().__init__()
        self.qkv = nn.Linear(hidden, 3 * head_size)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        return torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(q.size(-1)), dim=-1) @ v


class Attention(nn.Module):
    def __init__(self, config):
        super().__init__()
        size = config["hidden_size"] // config["num_heads"]
        self.heads = nn.ModuleList([Head(config["hidden_size"], size) for _ in range(config["num_heads"])])
        self.out = nn.Linear(config["hidden_size"], config["hidden_size"])

    def forward(self, x):
        return self.out(torch.cat([head(x) for head in self.heads], dim=-1))


class ViT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.patch = nn.Conv2d(3, config["hidden_size"], config["patch_size"], stride=config["patch_size"])
        self.cls_token = nn.Parameter(torch.randn(1, 1, config["hidden_size"]))
        self.attention = Attention(config)
        self.mlp = nn.Sequential(nn.Linear(config["hidden_size"], 4 * config["hidden_size"]), GELU(),
                                 nn.Linear(4 * config["hidden_size"], config["hidden_size"]))
        self.head = nn.Linear(config["hidden_size"], config["num_classes"])

    def forward(self, x):
        x = self.patch(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(x.size(0), -1, -1), x], dim=1)
        x = x + self.attention(x)
        x = x + self.mlp(x)
        return self.head(x[:, 0])
