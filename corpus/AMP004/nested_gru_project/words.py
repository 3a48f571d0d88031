# The word encoder of a hierarchical attention network: a bidirectional
# GRU over each sentence's words.
import torch.nn as nn


class WordEncoder(nn.Module):
    def __init__(self, vocab=50000, dim=300, hidden=512):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.gru = nn.GRU(dim, hidden, bidirectional=True, batch_first=True)

    def forward(self, words):
        out, _ = self.gru(self.embed(words))
        return out.mean(1)
