# A two-layer GCN of 32 hidden channels on Cora (blind samples S37L's
# fraud GCN, S34's 64-wide MatDeepLearn and DeeperGCN): each layer maps
# every node's features through a 32-wide linear map and scatters over the
# edges; a step bound by launches and memory, where bf16 autocast ran
# slower on narrow networks. No autocast advice there. The same GCN with
# 512 hidden channels and 8-head attention keeps it.
import argparse

import torch
import torch.nn.functional as F
from torch_geometric.datasets import Planetoid
from torch_geometric.nn import GATConv, GCNConv


class GCN(torch.nn.Module):
    def __init__(self, in_channels, hidden_channels, out_channels):
        super().__init__()
        self.conv1 = GCNConv(in_channels, hidden_channels)
        self.conv2 = GCNConv(hidden_channels, out_channels)

    def forward(self, x, edge_index):
        x = F.relu(self.conv1(x, edge_index))
        return self.conv2(x, edge_index)


class GAT(torch.nn.Module):
    def __init__(self, in_channels, hidden_channels, out_channels, heads=8):
        super().__init__()
        self.conv1 = GATConv(in_channels, hidden_channels, heads=heads)
        self.conv2 = GATConv(hidden_channels * heads, out_channels, heads=1)

    def forward(self, x, edge_index):
        x = F.elu(self.conv1(x, edge_index))
        return self.conv2(x, edge_index)


parser = argparse.ArgumentParser()
parser.add_argument("--hidden", type=int, default=32)
args = parser.parse_args()
dataset = Planetoid("data", "Cora")
data = dataset[0].to("cuda")
model = GCN(dataset.num_features, args.hidden, dataset.num_classes).to("cuda")
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, fused=True)
for epoch in range(200):
    out = model(data.x, data.edge_index)
    loss = F.cross_entropy(out[data.train_mask], data.y[data.train_mask])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

wide = GAT(dataset.num_features, 512, dataset.num_classes).to("cuda")
optimizer = torch.optim.Adam(wide.parameters(), lr=0.005, fused=True)
for epoch in range(200):
    out = wide(data.x, data.edge_index)  # want: AMP004
    loss = F.cross_entropy(out[data.train_mask], data.y[data.train_mask])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
