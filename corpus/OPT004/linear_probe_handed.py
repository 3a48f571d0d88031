# gpuopt-env: target-gpu=h100
# Linear evaluation of a pretrained encoder: the encoder is loaded, put in
# eval mode and run under no_grad to extract features; the probe trained
# on them is one linear layer, moved to the GPU by rebinding its name.
# The training helper is handed both networks but calls only the probe.
# Neither is a model to compile: no OPT004.
import torch
import torch.nn as nn
import torchvision


class Probe(nn.Module):
    def __init__(self, n_features, n_classes):
        super(Probe, self).__init__()
        self.model = nn.Linear(n_features, n_classes)

    def forward(self, x):
        return self.model(x)


class Encoder(nn.Module):
    def __init__(self, backbone, projection_dim):
        super().__init__()
        self.backbone = backbone
        self.projector = nn.Sequential(nn.Linear(2048, 2048), nn.ReLU(), nn.Linear(2048, projection_dim))

    def forward(self, x):
        h = self.backbone(x)
        return h, self.projector(h)


def train(loader, encoder, probe, criterion, optimizer, device):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = criterion(probe(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(feature_loader):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    encoder = Encoder(torchvision.models.resnet50(), 128)
    encoder.load_state_dict(torch.load("encoder.pt"))
    encoder = encoder.to(device)
    encoder.eval()
    probe = Probe(2048, 10)
    probe = probe.to(device)
    optimizer = torch.optim.Adam(probe.parameters(), lr=3e-4, fused=True)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(100):
        train(feature_loader, encoder, probe, criterion, optimizer, device)
