# A dehazing network of a few 3-channel convolutions trained on image
# files at full resolution: the step is the convolutions over 480x640
# activations, and a fused Adam over its ten small tensors measured 1.00x
# on the whole step (corpus/gpu/opt001_narrow.py). No finding.
import glob

import torch
import torch.nn as nn
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision.transforms.functional import to_tensor


class HazyPairs(Dataset):
    def __init__(self, root):
        self.paths = sorted(glob.glob(root + "/hazy/*.png"))

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        hazy = to_tensor(Image.open(self.paths[i]).convert("RGB"))
        clear = to_tensor(Image.open(self.paths[i].replace("hazy", "clear")).convert("RGB"))
        return hazy, clear


class DehazeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.e1 = nn.Conv2d(3, 3, 1)
        self.e2 = nn.Conv2d(3, 3, 3, padding=1)
        self.e3 = nn.Conv2d(6, 3, 5, padding=2)
        self.e4 = nn.Conv2d(6, 3, 7, padding=3)
        self.e5 = nn.Conv2d(12, 3, 3, padding=1)

    def forward(self, x):
        x1 = torch.relu(self.e1(x))
        x2 = torch.relu(self.e2(x1))
        x3 = torch.relu(self.e3(torch.cat((x1, x2), 1)))
        x4 = torch.relu(self.e4(torch.cat((x2, x3), 1)))
        k = torch.relu(self.e5(torch.cat((x1, x2, x3, x4), 1)))
        return torch.relu(k * x - k + 1)


def main():
    device = torch.device("cuda")
    net = DehazeNet().to(device)
    loader = DataLoader(HazyPairs("data/train"), batch_size=8, shuffle=True, num_workers=4, pin_memory=True)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-4, weight_decay=1e-4)
    criterion = nn.MSELoss()
    for epoch in range(10):
        for hazy, clear in loader:
            hazy, clear = hazy.to(device, non_blocking=True), clear.to(device, non_blocking=True)
            loss = criterion(net(hazy), clear)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
