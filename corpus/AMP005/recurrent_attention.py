# gpuopt-env: target-gpu=h100
# A DA-RNN-style forecaster: an LSTM encoder of a width read from the
# command line, attention over its states by torch.bmm, linear layers as
# wide as the states. cuDNN already runs the LSTM in TF32, and the
# attention's products are as narrow as the states: no finding. (A
# torch.bmm beside convolutions, a GAN's self-attention block, keeps the
# finding: conv_attention.py.)
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class Forecaster(nn.Module):
    def __init__(self, n_series, hidden=128, T=10):
        super().__init__()
        self.lstm = nn.LSTM(n_series, hidden, batch_first=True)
        self.attn = nn.Linear(2 * hidden, 1)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        states, (h, _) = self.lstm(x)
        query = h[-1].unsqueeze(1).expand_as(states)
        beta = F.softmax(self.attn(torch.cat([states, query], -1)).squeeze(-1), dim=1)
        context = torch.bmm(beta.unsqueeze(1), states)[:, 0, :]
        return self.out(context)


parser = argparse.ArgumentParser()
parser.add_argument("--hidden", type=int)
args = parser.parse_args()
model = Forecaster(81, args.hidden).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
for epoch in range(100):
    x = torch.randn(128, 10, 81, device="cuda")
    y = torch.randn(128, 1, device="cuda")
    loss = F.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
