# The same kind of narrow convolutional network on MNIST: 28x28 images
# held in memory, a step bound by its kernel launches, where the fused
# update measured 1.08-1.14x on the whole step (corpus/gpu/opt001_narrow.py).
import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Sequential(nn.Conv2d(1, 16, 5, padding=2), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2))
        self.layer2 = nn.Sequential(nn.Conv2d(16, 32, 5, padding=2), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2))
        self.fc = nn.Linear(7 * 7 * 32, 10)

    def forward(self, x):
        return self.fc(self.layer2(self.layer1(x)).reshape(x.size(0), -1))


def main():
    device = torch.device("cuda")
    train = datasets.MNIST("data", train=True, download=True, transform=transforms.ToTensor())
    loader = DataLoader(train, batch_size=100, shuffle=True, num_workers=4, pin_memory=True)
    model = ConvNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)  # want: OPT001
    criterion = nn.CrossEntropyLoss()
    for epoch in range(5):
        for images, labels in loader:
            images, labels = images.to(device, non_blocking=True), labels.to(device, non_blocking=True)
            loss = criterion(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
