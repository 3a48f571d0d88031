# A loader whose collate_fn batches DGL graphs (blind sample S37D's
# DimeNet-dgl): the DataLoader pins what has a pin_memory() method, which
# a DGLGraph lacks, so pin_memory=True would pin only the small label
# tensor beside the graphs. Not reported. A loader of plain tensors in
# the same file is.
import dgl
import torch
from torch.utils.data import DataLoader


def collate_graphs(samples):
    graphs, labels = map(list, zip(*samples))
    return dgl.batch(graphs), torch.stack(labels)


def train(model, graphs, features, optimizer, epochs=100):
    device = torch.device("cuda")
    graph_loader = DataLoader(graphs, batch_size=32, shuffle=True, collate_fn=collate_graphs, num_workers=4)
    feature_loader = DataLoader(features, batch_size=256, shuffle=True, num_workers=4)  # want: LOAD002
    for epoch in range(epochs):
        for g, y in graph_loader:
            g, y = g.to(device), y.to(device)
            loss = torch.nn.functional.l1_loss(model(g), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        for x, y in feature_loader:
            x, y = x.to(device), y.to(device)
            loss = torch.nn.functional.l1_loss(model.readout(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
