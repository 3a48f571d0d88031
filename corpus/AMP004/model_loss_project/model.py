import torch


class TuckER(torch.nn.Module):
    """A model that carries its loss: BCELoss on sigmoid scores."""

    def __init__(self, n_entities, n_relations, dim=200):
        super().__init__()
        self.E = torch.nn.Embedding(n_entities, dim)
        self.R = torch.nn.Embedding(n_relations, dim)
        self.W = torch.nn.Parameter(torch.randn(dim, dim, dim) * 0.01)
        self.loss = torch.nn.BCELoss()

    def forward(self, e1_idx, r_idx):
        x = torch.bmm(self.E(e1_idx).unsqueeze(1), (self.R(r_idx) @ self.W.view(self.W.size(0), -1)).view(-1, self.W.size(1), self.W.size(2)))
        return torch.sigmoid(x.squeeze(1) @ self.E.weight.t())
