# The loader is iterated through metric_logger.log_every(...) (blind
# sample S32S's Table-Detection-PyTorch): a loop over the loader all the same.
import torch
import torchvision
from torch.utils.data import DataLoader

import utils


def train_one_epoch(model, optimizer, data_loader, device, epoch):
    metric_logger = utils.MetricLogger(delimiter="  ")
    for images, targets in metric_logger.log_every(data_loader, 10, f"Epoch {epoch}"):
        images, targets = images.to(device), targets.to(device)
        loss = torch.nn.functional.cross_entropy(model(images), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main():
    device = torch.device("cuda")
    model = torchvision.models.resnet50().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, fused=True)
    dataset = torchvision.datasets.ImageFolder("train", transform=torchvision.transforms.ToTensor())
    data_loader = DataLoader(dataset, batch_size=64, shuffle=True)  # want: LOAD001
    for epoch in range(90):
        train_one_epoch(model, optimizer, data_loader, device, epoch)


if __name__ == "__main__":
    main()
