# A stereo script's test loader is read by one evaluation pass after the
# epochs, and its length divides the total loss: `len(test_loader)` starts
# no pass, so the loader is still read once and pinning stays silent. The
# training loader, read every epoch, is reported.
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

train_loader = DataLoader(datasets.ImageFolder("scenes/train", transform=transforms.ToTensor()), batch_size=12, shuffle=True, num_workers=8)  # want: LOAD002
test_loader = DataLoader(datasets.ImageFolder("scenes/test", transform=transforms.ToTensor()), batch_size=8, num_workers=4)
net = torch.hub.load("pytorch/vision", "resnet50", num_classes=192).cuda()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)


def main():
    for epoch in range(10):
        for x, y in train_loader:
            opt.zero_grad()
            F.cross_entropy(net(x.cuda()), y.cuda()).backward()
            opt.step()
    total = 0.0
    net.eval()
    with torch.no_grad():
        for x, y in test_loader:
            total += F.cross_entropy(net(x.cuda()), y.cuda())
    print("test loss", float(total) / len(test_loader))


if __name__ == "__main__":
    main()
