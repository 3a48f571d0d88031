import torch
import torch.nn as nn

from trainer import Trainer


def main(loader, classify_loader):
    model = nn.Sequential(nn.Linear(72, 512), nn.GELU(), nn.Linear(512, 72))
    trainer = Trainer(model, torch.optim.Adam(model.parameters(), lr=1e-3))
    trainer.pretrain(loader, 3200)
    trainer.train(classify_loader, 700, data_parallel=True)
