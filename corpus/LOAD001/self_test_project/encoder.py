# A model module with a self-test under its __main__ guard: it pushes a
# few batches through the encoder by hand and trains nothing. The
# training script imports Encoder from here, so this block is the
# module's check, not the project's run: nothing in it is reported
# (blind sample S22F's ConvLSTM encoder).
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from frames import FramesDataset


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 64, 3, padding=1)

    def forward(self, x):
        return self.conv(x)


if __name__ == "__main__":
    encoder = Encoder().cuda()
    data = FramesDataset(["a.npy", "b.npy"])
    loader = DataLoader(data, batch_size=4, shuffle=False)
    for frames in loader:
        print(encoder(frames.cuda()).shape)
