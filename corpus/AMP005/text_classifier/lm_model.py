# A language model: its decoder is as wide as the embedding's vocabulary,
# a large matmul per token.
import torch.nn as nn


class LanguageModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid)
        self.decoder = nn.Linear(nhid, ntoken)

    def forward(self, x):
        h, _ = self.rnn(self.encoder(x))
        return self.decoder(h)
