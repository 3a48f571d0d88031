import torch
import torch.nn as nn


class EncoderRNN(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.hidden = hidden
        self.embedding = nn.Embedding(vocab, hidden)
        self.gru = nn.GRU(hidden, hidden)

    def forward(self, tokens, h):
        return self.gru(self.embedding(tokens).view(len(tokens), 1, -1), h)

    def init_hidden(self):
        return torch.zeros(1, 1, self.hidden, device="cuda")
