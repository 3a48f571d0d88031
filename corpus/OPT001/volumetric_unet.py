# A 3-D U-Net trained on 128³ crops (blind sample S29D's BraTS model): the
# Adam update over its few million parameters is well under 1% of a step
# of 3-D convolutions, so OPT001 says nothing.
import torch
import torch.nn as nn


def block(cin, cout):
    return nn.Sequential(nn.Conv3d(cin, cout, 3, padding=1), nn.InstanceNorm3d(cout), nn.LeakyReLU(inplace=True))


class UNet3d(nn.Module):
    def __init__(self, width=256):
        super().__init__()
        self.down1 = block(4, width)
        self.down2 = block(width, 2 * width)
        self.pool = nn.MaxPool3d(2)
        self.up = nn.ConvTranspose3d(2 * width, width, 2, stride=2)
        self.out = nn.Conv3d(2 * width, 3, 1)

    def forward(self, x):
        a = self.down1(x)
        b = self.down2(self.pool(a))
        return self.out(torch.cat([a, self.up(b)], dim=1))


def train(loader, epochs):
    model = UNet3d().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    for epoch in range(epochs):
        for x, y in loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            loss = nn.functional.binary_cross_entropy_with_logits(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    from torch.utils.data import DataLoader
    from volumes import BraTSCrops

    train(DataLoader(BraTSCrops("data/train"), batch_size=1, num_workers=8, pin_memory=True, persistent_workers=True), 200)
