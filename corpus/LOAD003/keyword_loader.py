# Loaders handed to the training function by keyword, once per epoch
# (sgrvinod's captioning tutorial): their workers restart every epoch.
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def train(train_loader, model, optimizer, epoch):
    model.train()
    for imgs, labels in train_loader:
        loss = torch.nn.functional.cross_entropy(model(imgs.to(device)), labels.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main():
    data = datasets.CIFAR10("data", download=True, transform=transforms.ToTensor())
    loader = DataLoader(data, batch_size=32, shuffle=True, num_workers=4, pin_memory=True)  # want: LOAD003
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3072, 10)).to(device)
    optimizer = torch.optim.Adam(model.parameters())
    for epoch in range(10):
        train(train_loader=loader, model=model, optimizer=optimizer, epoch=epoch)


if __name__ == "__main__":
    main()
