# gpuopt-env: target-gpu=h100
# The network class of another module converts its layers to float64 in
# its __init__ (`.double()`): autocast casts only fp32 tensors, so a bf16
# wrap would change nothing. No finding.
import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from eegnet import EEGNet


def main():
    x = torch.tensor(np.load("train_data.npy"))
    y = torch.tensor(np.load("train_label.npy")).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=256, shuffle=True)
    model = EEGNet().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    for epoch in range(300):
        for xb, yb in loader:
            xb, yb = xb.cuda(), yb.cuda()
            loss = torch.nn.functional.cross_entropy(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
