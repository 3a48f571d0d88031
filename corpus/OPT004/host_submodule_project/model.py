"""A session-graph recommender: the scorer splits the node embeddings
into one slice per session with sizes read on the host, every step."""
import torch
import torch.nn as nn


class SessionScorer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.proj = nn.Linear(hidden, hidden)

    def forward(self, nodes, batch):
        sizes = torch.bincount(batch)
        sessions = torch.split(self.proj(nodes), tuple(sizes.cpu().numpy()))
        return torch.stack([s.mean(0) for s in sessions])


class SessionGraphNet(nn.Module):
    def __init__(self, hidden, n_items):
        super().__init__()
        self.items = nn.Embedding(n_items, hidden)
        self.mix = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.ReLU(), nn.Linear(4 * hidden, hidden))
        self.score = SessionScorer(hidden)

    def forward(self, x, batch):
        return self.score(self.mix(self.items(x)), batch) @ self.items.weight.t()
