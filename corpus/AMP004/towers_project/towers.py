import torch.nn as nn


class Tower(nn.Module):
    def __init__(self, vocab=30000, dim=1024):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4096), nn.GELU(), nn.Linear(4096, dim))

    def forward(self, tokens):
        return self.mlp(self.embed(tokens))


class TwoTowers(nn.Module):
    def __init__(self):
        super().__init__()
        self.query_tower = Tower()
        self.document_tower = Tower()

    def encode_queries(self, tokens):
        return self.query_tower(tokens)

    def encode_documents(self, tokens):
        return self.document_tower(tokens)
