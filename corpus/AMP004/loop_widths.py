# gpuopt-env: target-gpu=h100
# A tabular MLP whose layers are built in a loop over a tuple default
# (`for h in hidden: nn.Linear(prev, h)`, hidden=(256, 256, 128)): every
# layer is 256 wide or less, where autocast ran 0.62-0.85× on an H100.
# Silent. The same loop over (2048, 2048) builds layers wide enough to
# gain: reported.
import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, input_dim, hidden=(256, 256, 128), dropout=0.1):
        super().__init__()
        layers, prev = [], input_dim
        for h in hidden:
            layers += [nn.Linear(prev, h), nn.BatchNorm1d(h), nn.SiLU(), nn.Dropout(dropout)]
            prev = h
        layers.append(nn.Linear(prev, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x).squeeze(-1)


def train_epoch(model, loader, optimizer):
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        optimizer.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        optimizer.step()


def train_wide_epoch(model, loader, optimizer):
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        optimizer.zero_grad()
        loss = ((model(x) - y) ** 2).mean()  # want: AMP004
        loss.backward()
        optimizer.step()


def main(loader, n_features):
    model = MLP(n_features).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    wide = MLP(n_features, hidden=(2048, 2048)).cuda()
    wide_optimizer = torch.optim.AdamW(wide.parameters(), lr=1e-3)
    for epoch in range(20):
        train_epoch(model, loader, optimizer)
        train_wide_epoch(wide, loader, wide_optimizer)
