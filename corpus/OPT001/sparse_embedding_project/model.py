"""The project's model: its embedding's gradients are sparse when the
script's --sparse flag says so."""
import torch.nn as nn


class TreeModel(nn.Module):
    def __init__(self, vocab, dim, sparsity):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0, sparse=sparsity)
        self.out = nn.Linear(dim, 5)

    def forward(self, x):
        return self.out(self.emb(x).mean(1))
