"""SGD over a model whose embedding may give sparse gradients (built in
model.py with sparse=args.sparse): fused=True would raise at the first
step ("_fused_sgd does not support sparse gradients"), so OPT001 says
nothing here (blind sample S18B's TreeLSTM)."""
import argparse

import torch

from model import TreeModel

parser = argparse.ArgumentParser()
parser.add_argument("--sparse", action="store_true")
args = parser.parse_args()

model = TreeModel(1000, 300, args.sparse).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, weight_decay=0.0, momentum=0.9)
for step in range(10):
    x = torch.randint(0, 1000, (8, 12), device="cuda")
    loss = model(x).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
