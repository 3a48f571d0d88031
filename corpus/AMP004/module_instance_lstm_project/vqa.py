# A question encoder built once, at the top of the module, and kept on
# the answering network (`self.question = encoder`): the network runs a
# cuDNN LSTM, which autocast casts to fp16 whatever dtype the region asks.
import torch
import torch.nn as nn


class QuestionEncoder(nn.Module):
    def __init__(self, vocab=20000, dim=300, hidden=2048):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, hidden, num_layers=2, batch_first=True)

    def forward(self, tokens):
        _, (h, _) = self.lstm(self.embed(tokens))
        return h[-1]


encoder = QuestionEncoder()


class Answerer(nn.Module):
    def __init__(self, answers=3000):
        super().__init__()
        self.image = nn.Sequential(nn.Linear(2048, 2048), nn.ReLU())
        self.question = encoder
        self.head = nn.Linear(2048, answers)

    def forward(self, image, tokens):
        return self.head(self.image(image) * self.question(tokens))
