# A frozen expert used as a loss (blind sample S33AD's Wav2Lip SyncNet):
# its checkpoint is loaded through a helper whose parameter is called
# `model`, like the trained generator, but no optimizer steps it, so it is
# not a trained model. Only the generator is reported. The optimizer's
# parameter list is a comprehension over the generator's parameters.
import torch
import torch.nn as nn


class Expert(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.Conv2d(256, 512, 3, padding=1))

    def forward(self, x):
        return self.net(x).mean()


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.Conv2d(256, 3, 3, padding=1))

    def forward(self, x):
        return self.net(x)


def load_checkpoint(path, model, optimizer=None):
    state = torch.load(path)
    model.load_state_dict(state["model"])
    if optimizer is not None:
        optimizer.load_state_dict(state["optimizer"])
    return model


def sync_loss(expert, g):
    return expert(g)


def train(model, expert, loader, optimizer, device):
    for epoch in range(100):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            g = model(x)
            loss = nn.functional.l1_loss(g, y) + 0.03 * sync_loss(expert, g)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    device = torch.device("cuda")
    expert = Expert().to(device)
    load_checkpoint("expert.pth", expert)
    expert.eval()
    model = Generator().to(device)  # want: OPT004
    optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-4, fused=True)
    load_checkpoint("generator.pth", model, optimizer)
    train(model, expert, [], optimizer, device)
