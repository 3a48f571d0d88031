import torch
import torch.nn as nn


def fit(model, loader, optimizer, epochs, data_parallel=False):
    model = model.cuda()
    if data_parallel:  # no call turns it on: never runs
        model = nn.DataParallel(model)
    for epoch in range(epochs):
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def finetune(model, loader, optimizer, multi_gpu=False):
    if multi_gpu:
        model = nn.DataParallel(model)  # want: OPT005
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(model, loader, optimizer):
    fit(model, loader, optimizer, 100)
    fit(model, loader, optimizer, 10, data_parallel=False)
    finetune(model, loader, optimizer, multi_gpu=True)
