# Loaders handed to a training function that walks them as
# `for phase, loader in [("train", train_loader), ("valid", val_loader)]:`
# (blind sample S26D's Cloth_category_classifier): the training loader
# feeds the GPU step like the validation one, and is reported too.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def train(model, optimizer, train_loader, val_loader, epochs):
    criterion = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        for phase, loader in [("train", train_loader), ("valid", val_loader)]:
            for images, labels in loader:
                images, labels = images.cuda(), labels.cuda()
                with torch.set_grad_enabled(phase == "train"):
                    loss = criterion(model(images), labels)
                if phase == "train":
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()


def main():
    tf = transforms.Compose([transforms.RandomResizedCrop(224), transforms.ToTensor()])
    train_set = datasets.ImageFolder("data/train", tf)
    val_set = datasets.ImageFolder("data/val", tf)
    train_loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=8, persistent_workers=True)  # want: LOAD002
    val_loader = DataLoader(val_set, batch_size=64, num_workers=8, persistent_workers=True)  # want: LOAD002
    model = torch.hub.load("pytorch/vision", "resnet50").cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, fused=True)
    train(model=model, optimizer=optimizer, train_loader=train_loader, val_loader=val_loader, epochs=90)


if __name__ == "__main__":
    main()
