# gpuopt-env: cpus=16
import torch
from torch.utils.data import DataLoader
from torchvision.datasets import ImageFolder

device = torch.device("cuda")
model = torch.nn.Linear(8, 2).to(device)
optimizer = torch.optim.AdamW(model.parameters())
dataset = ImageFolder("data/train")
loader = DataLoader(dataset, batch_size=8, shuffle=True)  # want: LOAD001
zero = DataLoader(dataset, batch_size=8, num_workers=0, pin_memory=False)  # want: LOAD001


def train(model, loader):
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    for epoch in range(3):
        train(model, loader)
        for x, y in zero:
            loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
            loss.backward()
