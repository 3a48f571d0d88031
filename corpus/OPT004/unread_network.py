# A network from a module missing from the repository, known as a model
# only because its parameters go to an optimizer: nothing says what
# torch.compile could fuse in it, so OPT004 stays silent there. The
# Transformer beside it, built here, is reported.
import torch
import torch.nn as nn

from models.network import Network


def fit(net, loader, optim, device):
    for x, target in loader:
        x, target = x.to(device), target.to(device)
        loss = torch.abs(target - net(x)).mean()
        loss.backward()
        optim.step()
        optim.zero_grad()


def main(loader, device="cuda"):
    net = Network(width=512).to(device)
    optim = torch.optim.Adam(net.parameters(), lr=1e-4, fused=True)
    for epoch in range(50):
        fit(net, loader, optim, device)
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(1024, 16, batch_first=True), 12).to(device)  # want: OPT004
    optim = torch.optim.AdamW(encoder.parameters(), lr=1e-4, fused=True)
    for epoch in range(50):
        fit(encoder, loader, optim, device)
