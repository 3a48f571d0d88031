# A session recommender's GRU: init_hidden() builds the first hidden state
# on the CPU and moves it. The trainer and the evaluator of sibling
# modules call it once per epoch, before their batch loops: set-up, not a
# step (blind sample S14A's GRU4REC). forward() builds its mask every
# step: reported.
import torch
from torch import nn


class SessionGRU(nn.Module):
    def __init__(self, n_items, hidden_size=100, batch_size=50, device="cuda"):
        super().__init__()
        self.hidden_size, self.batch_size, self.device = hidden_size, batch_size, device
        self.embed = nn.Embedding(n_items, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size)
        self.out = nn.Linear(hidden_size, n_items)

    def init_hidden(self):
        return torch.zeros(1, self.batch_size, self.hidden_size).to(self.device)

    def forward(self, items, hidden):
        mask = torch.ones(items.shape[0], 1).to(self.device)  # want: XFER001
        out, hidden = self.gru(self.embed(items).unsqueeze(0) * mask, hidden)
        return self.out(out.squeeze(0)), hidden
