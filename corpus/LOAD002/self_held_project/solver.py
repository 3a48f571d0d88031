"""Holds the loaders on self and trains on the GPU."""
import torch
import torch.nn as nn

from data_loader import get_loader


class Solver:
    def __init__(self, args, model):
        self.args = args
        self.train_loader, self.test_loader = get_loader(args)
        self.model = model.cuda()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), fused=True)

    def test(self):
        self.model.eval()
        correct = 0
        with torch.no_grad():
            for x, y in self.test_loader:
                correct += (self.model(x.cuda()).argmax(1) == y.cuda()).sum()
        return float(correct)

    def train(self):
        for epoch in range(self.args.epochs):
            self.model.train()
            for i, (x, y) in enumerate(self.train_loader):
                loss = nn.functional.cross_entropy(self.model(x.cuda()), y.cuda())
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print(epoch, self.test())
