import torch
from torch import autograd


def train(model, loader, optimizer, epochs):
    # Lightning-free trainer that wraps every epoch in anomaly mode
    with autograd.detect_anomaly():  # want: OPT006
        for epoch in range(epochs):
            for x, y in loader:
                x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
                with torch.autocast("cuda", dtype=torch.bfloat16):
                    loss = torch.nn.functional.mse_loss(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


def train_step(model, x, y, optimizer):
    with torch.autograd.set_detect_anomaly(True):  # want: OPT006
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
    optimizer.step()


def evaluate(model, x):
    # no backward under it: anomaly mode costs little here
    with torch.autograd.detect_anomaly():
        return model(x)
