import torch


class Trainer:
    def __init__(self, model, loader, optimizer):
        self.model = model
        self.loader = loader
        self.optimizer = optimizer

    def train_epoch(self):
        hidden = self.model.init_hidden()
        for items, targets in self.loader:
            logits, hidden = self.model(items.cuda(), hidden.detach())
            loss = torch.nn.functional.cross_entropy(logits, targets.cuda())
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
