"""Trains on the loader's train split, then scores both splits through the
same loader: persistent workers would keep the train split's copy of the
dataset, so LOAD001's fix starts workers that are not persistent."""
import torch


class Solver:
    def __init__(self, data_loader, model):
        self.data_loader = data_loader
        self.model = model.cuda()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-4, fused=True)

    def train(self, epochs):
        for epoch in range(epochs):
            for x in self.data_loader:
                loss = self.model(x.cuda()).pow(2).mean()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()

    def test(self):
        scores = []
        with torch.no_grad():
            for mode in ("train", "test"):
                self.data_loader.dataset.mode = mode
                for x in self.data_loader:
                    scores.append(self.model(x.cuda()).sum(1))
        return torch.cat(scores).cpu()
