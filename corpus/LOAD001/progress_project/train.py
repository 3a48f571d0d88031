# gpuopt-env: cpus=16
import torch
from torch import nn
from torch.utils.data import DataLoader
from torchvision.datasets import ImageFolder

from engine import train_one_epoch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

if __name__ == "__main__":
    train_dl = DataLoader(ImageFolder("data/train"), batch_size=4, shuffle=True)  # want: LOAD001
    valid_dl = DataLoader(ImageFolder("data/valid"), batch_size=4)  # want: LOAD001
    model = nn.Linear(8, 2).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(20):
        train_one_epoch(model, train_dl, valid_dl, nn.CrossEntropyLoss(), optimizer)
