import torch
import torch.nn as nn

from trainer import *

GPU = 0
DEVICE = torch.device("cuda:" + str(GPU) if torch.cuda.is_available() else "cpu")


def main(loader):
    model = nn.Sequential(nn.Conv1d(9, 256, 5), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(256, 6)).to(DEVICE)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    train(loader, model, optimizer, nn.CrossEntropyLoss(), DEVICE, 200)
