# gpuopt-env: target-gpu=h100
# An agent's Transformer converted to float64 (`.double()`), fed float64
# batches: autocast casts only fp32 tensors, so a wrap would change
# nothing, and AMP004 (and AMP005: TF32 is an fp32 format) stay silent
# (blind sample S15A).
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model=1024, nhead=16, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=6)
        self.head = nn.Linear(1024, 3)

    def forward(self, x):
        return self.head(self.encoder(x).mean(1))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Agent:
    def __init__(self):
        self.net = Net().double().to(device)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=1e-3)

    def update(self, states, targets):
        s = torch.tensor(states, dtype=torch.double).to(device)
        t = torch.tensor(targets, dtype=torch.double).to(device)
        for _ in range(10):
            loss = nn.functional.smooth_l1_loss(self.net(s), t)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
