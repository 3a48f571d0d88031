# gpuopt-env: target-gpu=h100
import torch
from torch.utils.data import DataLoader

import config
import engine
from model import TextModel


def run(train_set, valid_set):
    train_loader = DataLoader(train_set, batch_size=64, shuffle=True)
    valid_loader = DataLoader(valid_set, batch_size=64)
    device = torch.device(config.DEVICE)
    model = TextModel().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5, fused=True)
    for epoch in range(config.EPOCHS):
        engine.train_fn(train_loader, model, optimizer, device)
        engine.eval_fn(valid_loader, model, device)


if __name__ == "__main__":
    run(None, None)
