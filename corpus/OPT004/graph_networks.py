# Drug-target affinity GNNs on PyTorch Geometric (blind sample S32Q's
# GraphDTA): every batch is a new graph with its own node and edge
# counts, so a compiled model recompiles: silent, also for a class picked
# from a list by a command-line index. The sequence encoder trained
# beside them keeps the finding.
import sys

import torch
import torch.nn as nn
from torch_geometric.nn import GATConv, GCNConv, global_max_pool


class GCNNet(nn.Module):
    def __init__(self, features=78, hidden=312):
        super().__init__()
        self.conv1 = GCNConv(features, hidden)
        self.conv2 = GCNConv(hidden, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, data):
        x = self.conv2(self.conv1(data.x, data.edge_index).relu(), data.edge_index).relu()
        return self.out(global_max_pool(x, data.batch))


class GATNet(nn.Module):
    def __init__(self, features=78, hidden=312):
        super().__init__()
        self.conv = GATConv(features, hidden, heads=10)
        self.out = nn.Linear(hidden * 10, 1)

    def forward(self, data):
        return self.out(global_max_pool(self.conv(data.x, data.edge_index).relu(), data.batch))


def train(model, loader, epochs):
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-4, fused=True)
    for epoch in range(epochs):
        for data in loader:
            data = data.to("cuda")
            loss = nn.functional.mse_loss(model(data).squeeze(-1), data.y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def main(graph_loader, token_loader):
    modeling = [GCNNet, GATNet][int(sys.argv[1])]
    model = modeling().to("cuda")
    train(model, graph_loader, 1000)
    attention = GATNet(hidden=512).cuda()
    train(attention, graph_loader, 1000)
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(512, 8, batch_first=True), 6).cuda()  # want: OPT004
    optimizer = torch.optim.AdamW(encoder.parameters(), lr=1e-4, fused=True)
    for epoch in range(1000):
        for tokens in token_loader:
            loss = encoder(tokens.cuda()).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
