# A derain GAN whose loss compares images through small downscaling
# convolutions that no optimizer trains (blind sample S38P): the helper's
# one 3→64 convolution is no share of the step, and its layout is not
# reported. The generator, trained and wide, is.
import torch
import torch.nn as nn
import torchvision


class Downscale2(nn.Module):
    def __init__(self, in_channels):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(in_channels, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU())
        self.pool = nn.MaxPool2d(2, 2)

    def forward(self, x):
        return self.pool(self.conv(x))


def main(loader, epochs):
    gen = torchvision.models.resnet50(num_classes=3 * 64 * 64).cuda()  # want: MEM006
    downscale2 = Downscale2(in_channels=3).cuda()
    opt = torch.optim.Adam(gen.parameters(), lr=2e-4, fused=True)
    for epoch in range(epochs):
        for rainy, clean in loader:
            rainy, clean = rainy.cuda(), clean.cuda()
            with torch.autocast("cuda", dtype=torch.bfloat16):
                fake = gen(rainy).view(-1, 3, 64, 64)
                loss = (downscale2(fake) - downscale2(clean)).abs().mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
