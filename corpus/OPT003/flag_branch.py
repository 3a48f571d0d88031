# gpuopt-env: target-gpu=h100
# The convolutional encoder runs only when --encoder is "cnn"; the
# default is the MLP encoder, which cuDNN does not run: no finding (the
# flag's default path trains no convolution).
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--encoder", type=str, default="mlp")
args = parser.parse_args()

if args.encoder == "mlp":
    encoder = nn.Sequential(nn.Linear(49, 256), nn.ELU(), nn.Linear(256, 256))
elif args.encoder == "cnn":
    encoder = nn.Sequential(nn.Conv1d(4, 256, 5, padding=2), nn.ReLU(), nn.Flatten(), nn.Linear(256 * 49, 256))
encoder = encoder.cuda()
optimizer = torch.optim.Adam(encoder.parameters(), lr=5e-4, fused=True)
for epoch in range(500):
    x = torch.randn(128, 49, device="cuda")
    loss = F.mse_loss(encoder(x), torch.zeros(128, 256, device="cuda"))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
