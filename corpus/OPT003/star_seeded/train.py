# gpuopt-env: target-gpu=h100
# A Kaggle solution's layout: train.py star-imports train_func, which
# star-imports utils, whose seed_everything (called here) chooses the cuDNN
# flags. Silent.
import torch
import torch.nn as nn

from train_func import *

if __name__ == "__main__":
    seed_everything(42)
    device = torch.device("cuda")
    model = nn.Sequential(nn.Conv2d(3, 64, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(10)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), fused=True)
    loader = [(torch.randn(8, 3, 32, 32), torch.randint(0, 10, (8,)))]
    for epoch in range(10):
        for images, labels in loader:
            loss = nn.functional.cross_entropy(model(images.to(device)), labels.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
