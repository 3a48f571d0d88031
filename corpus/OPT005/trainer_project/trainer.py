import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def pretrain(self, loader, epochs, data_parallel=False):
        model = self.model.cuda()
        if data_parallel:  # pretrain.py never passes it: never runs
            model = nn.DataParallel(model)
        for epoch in range(epochs):
            for x in loader:
                loss = model(x.cuda()).pow(2).mean()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()

    def train(self, loader, epochs, data_parallel=False):
        model = self.model.cuda()
        if data_parallel:
            model = nn.DataParallel(model)  # want: OPT005
        for epoch in range(epochs):
            for x, y in loader:
                loss = nn.functional.mse_loss(model(x.cuda()), y.cuda())
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
