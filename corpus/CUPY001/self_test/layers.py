# gpuopt-env: target-gpu=h100
# A library module of the project with a shape check under its __main__
# guard: the check runs once, by hand, so CUPY001 says nothing of its
# large NumPy array (blind sample S15F's PixelCNN++ model.py).
import numpy as np
import torch
import torch.nn as nn


class Down(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, stride=2, padding=1)

    def forward(self, x):
        return self.conv(x)


if __name__ == "__main__":
    x = np.random.rand(64, 32, 128, 128).astype("float32")
    y = Down(32).cuda()(torch.from_numpy(x).cuda())
    print(y.shape)
