# gpuopt-env: target-gpu=h100
# A detection recipe: two high-resolution COCO images per GPU is what fits
# a DETR-style step, not a default left low. Silent.
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--batch_size", default=2, type=int)
parser.add_argument("--coco_path", type=str)
args = parser.parse_args()

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Conv2d(3, 256, 3).to(device)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
images = TensorDataset(torch.randn(16, 3, 800, 1333))
loader = DataLoader(images, batch_size=args.batch_size)
for epoch in range(300):
    for (x,) in loader:
        boxes = model(x.to(device))
        loss = boxes.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
