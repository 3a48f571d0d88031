"""Class-incremental training: each phase trains on new classes for many
epochs (its loader keeps LOAD002), then rebuilds small evaluation
loaders (one per class for the class means, one for the phase's accuracy)
that already have two workers and are read once by a helper that trains
nothing. Pinning buys nothing measurable on a class's few batches read once:
those loaders stay silent. A loader rebuilt per phase but read every
epoch by an evaluation loop under it keeps its findings."""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

from features import accuracy, class_features

device = torch.device("cuda")
net = torch.hub.load("pytorch/vision", "resnet18", num_classes=100).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
pool = datasets.ImageFolder("data/train", transform=transforms.ToTensor())
held_out = datasets.ImageFolder("data/val", transform=transforms.ToTensor())

for phase in range(10):
    train_loader = DataLoader(pool, batch_size=128, shuffle=True, num_workers=2)  # want: LOAD002
    check_loader = DataLoader(held_out, batch_size=256, num_workers=2)  # want: LOAD002
    for epoch in range(160):
        net.train()
        for images, labels in train_loader:
            opt.zero_grad()
            F.cross_entropy(net(images.to(device)), labels.to(device)).backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            for images, labels in check_loader:
                print(net(images.to(device)).argmax(1).eq(labels.to(device)).float().mean())
    means = []
    for cls in range(phase * 10, phase * 10 + 10):
        per_class = DataLoader(torch.utils.data.Subset(pool, [cls]), batch_size=128, num_workers=2)
        means.append(class_features(net, per_class, device).mean(0))
    phase_loader = DataLoader(held_out, batch_size=128, num_workers=2)
    print(phase, accuracy(net, phase_loader, device))
