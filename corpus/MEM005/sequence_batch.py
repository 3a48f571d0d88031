# gpuopt-env: target-gpu=h100
# A language model's batch counts sequences: each step is batch_size ×
# tgt_len tokens, and the seeds' table (images per step) does not apply.
# Silent.
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--batch_size", type=int, default=60)
parser.add_argument("--tgt_len", type=int, default=150)
args = parser.parse_args()

model = nn.TransformerEncoder(nn.TransformerEncoderLayer(512, 8, batch_first=True), 6).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for step in range(1000):
    x = torch.randn(args.batch_size, args.tgt_len, 512, device="cuda")
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
