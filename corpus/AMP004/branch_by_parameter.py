# gpuopt-env: target-gpu=h100
# The network is chosen by a parameter that every call passes the same
# string: train() builds the 64-wide MLP on the only path the script runs
# (run() hands base_model="mlp" through). The Transformer's branch never
# runs, so the step is narrow: no AMP004, AMP005 or OPT004 (narrow
# networks ran 0.65-0.9x with autocast and 0.47-0.89x under the compiler).
# Run with "transformer", the script gets all three.
import torch
import torch.nn as nn


class SmallMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))

    def forward(self, x):
        return self.net(x)


def train(base_model, steps):
    if base_model == "mlp":
        model = SmallMLP().cuda()
    if base_model == "transformer":
        model = nn.Sequential(nn.Linear(32, 1024), nn.TransformerEncoder(nn.TransformerEncoderLayer(1024, 16, batch_first=True), 6), nn.Linear(1024, 10)).cuda()
    optimizer = torch.optim.Adam(model.parameters(), fused=True)
    for step in range(steps):
        x = torch.randn(64, 128, 32, device="cuda")
        y = torch.randint(0, 10, (64, 128), device="cuda")
        loss = nn.functional.cross_entropy(model(x).flatten(0, 1), y.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def run(base_model="mlp", steps=1000):
    train(base_model, steps)


run(base_model="mlp", steps=1000)
