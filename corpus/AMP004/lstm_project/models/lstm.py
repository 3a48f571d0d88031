import torch
import torch.nn as nn


class LSTMClassifier(nn.Module):
    def __init__(self, vocab_size, embedding_length, hidden_size, output_size):
        super(LSTMClassifier, self).__init__()
        self.embed = nn.Embedding(vocab_size, embedding_length)
        self.lstm = nn.LSTM(embedding_length, hidden_size)
        self.label = nn.Linear(hidden_size, output_size)

    def forward(self, x):
        out, (h, c) = self.lstm(self.embed(x).permute(1, 0, 2))
        return self.label(h[-1])
