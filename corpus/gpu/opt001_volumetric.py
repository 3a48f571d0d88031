"""Fused Adam (OPT001) on 3-D convolutional networks (blind sample S29D's
BraTS U-Nets): one full training step (forward, loss, backward, Adam
step) with the default foreach Adam against fused=True, run alternately.
OPT001's silence on volumetric training cites these lines.

    python corpus/gpu/opt001_volumetric.py
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from opt001_narrow import measure


def block(cin, cout):
    return nn.Sequential(nn.Conv3d(cin, cout, 3, padding=1), nn.InstanceNorm3d(cout, affine=True), nn.LeakyReLU(inplace=True),
                         nn.Conv3d(cout, cout, 3, padding=1), nn.InstanceNorm3d(cout, affine=True), nn.LeakyReLU(inplace=True))


class UNet3d(nn.Module):
    """A four-level 3-D U-Net of the BraTS kind: widths w, 2w, 4w, 8w."""

    def __init__(self, w):
        super().__init__()
        ws = [w, 2 * w, 4 * w, 8 * w]
        self.down = nn.ModuleList(block(c_in, c) for c_in, c in zip([4] + ws[:-1], ws))
        self.up = nn.ModuleList(nn.ConvTranspose3d(c, c // 2, 2, stride=2) for c in ws[:0:-1])
        self.dec = nn.ModuleList(block(c, c // 2) for c in ws[:0:-1])
        self.out = nn.Conv3d(w, 3, 1)

    def forward(self, x):
        skips = []
        for i, d in enumerate(self.down):
            x = d(x)
            if i < len(self.down) - 1:
                skips.append(x)
                x = F.max_pool3d(x, 2)
        for up, dec in zip(self.up, self.dec):
            x = dec(torch.cat([skips.pop(), up(x)], dim=1))
        return self.out(x)


def main():
    print(torch.__version__, torch.cuda.get_device_name())
    bce = F.binary_cross_entropy_with_logits
    for w, side, batch in [(16, 128, 1), (32, 128, 1), (48, 128, 2), (32, 96, 2)]:
        x = torch.randn(batch, 4, side, side, side, device="cuda")
        y = torch.rand(batch, 3, side, side, side, device="cuda")
        measure(f"3-D U-Net width {w}, {batch}x4x{side}^3", lambda: UNet3d(w), x, y, bce)


if __name__ == "__main__":
    main()
