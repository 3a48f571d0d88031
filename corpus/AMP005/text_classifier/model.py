# A text classifier: an embedding and a recurrent layer feeding a
# one-unit head. No linear layer is as wide as the vocabulary.
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self, max_features, embed_size, hidden):
        super().__init__()
        self.embedding = nn.Embedding(max_features, embed_size)
        self.lstm = nn.LSTM(embed_size, hidden, bidirectional=True, batch_first=True)
        self.out = nn.Linear(hidden * 2, 1)

    def forward(self, x):
        h, _ = self.lstm(self.embedding(x))
        return self.out(h.max(dim=1).values)

