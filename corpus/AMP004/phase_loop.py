# gpuopt-env: target-gpu=h100
# The train/val phase loop of PyTorch's transfer-learning tutorial: the
# forward runs under set_grad_enabled, the backward only in the train phase.
import matplotlib.pyplot as plt
import torch
from torch import nn


def train_model(model, dataloaders, criterion, optimizer, device, num_epochs=25):
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            model.train() if phase == "train" else model.eval()
            running_loss = 0.0
            for inputs, labels in dataloaders[phase]:
                inputs = inputs.to(device)
                labels = labels.to(device)
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)  # want: AMP004
                    _, preds = torch.max(outputs, 1)
                    loss = criterion(outputs, labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                running_loss += loss.detach() * inputs.size(0)
            print(phase, running_loss)
    return model


def visualize_model(model, loader, device, num_images=6):
    # Draws a few predictions and returns: not an evaluation loop.
    shown = 0
    with torch.no_grad():
        for inputs, labels in loader:
            outputs = model(inputs.to(device))
            _, preds = torch.max(outputs, 1)
            for j in range(inputs.size(0)):
                shown += 1
                plt.subplot(num_images // 2, 2, shown)
                plt.title(f"predicted: {preds[j]}")
                if shown == num_images:
                    return


if __name__ == "__main__":
    dev = torch.device("cuda")
    net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 224 * 224, 1000)).to(dev)
    opt = torch.optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
    loaders = {"train": [], "val": []}
    train_model(net, loaders, nn.CrossEntropyLoss(), opt, dev)
    visualize_model(net, loaders["val"], dev)
