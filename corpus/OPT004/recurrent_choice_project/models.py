import torch.nn as nn


class LstmGruModel(nn.Module):
    def __init__(self, embedding_matrix, hidden=120):
        super().__init__()
        self.embedding = nn.Embedding.from_pretrained(embedding_matrix)
        self.lstm = nn.LSTM(embedding_matrix.shape[1], hidden, bidirectional=True, batch_first=True)
        self.gru = nn.GRU(hidden * 2, hidden // 2, bidirectional=True, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        h, _ = self.lstm(self.embedding(x))
        h, _ = self.gru(h)
        return self.out(h.max(1).values)


class LstmConvModel(nn.Module):
    def __init__(self, embedding_matrix, hidden=128):
        super().__init__()
        self.embedding = nn.Embedding.from_pretrained(embedding_matrix)
        self.lstm = nn.LSTM(embedding_matrix.shape[1], hidden, bidirectional=True, batch_first=True)
        self.conv = nn.Conv1d(hidden * 2, 64, 2)
        self.out = nn.Linear(64, 1)

    def forward(self, x):
        h, _ = self.lstm(self.embedding(x))
        return self.out(self.conv(h.transpose(1, 2)).max(2).values)
