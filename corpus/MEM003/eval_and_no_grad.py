# `with self.net.eval() and torch.no_grad():` (blind sample S38F's
# change-detection trainer): the first operand puts the model in eval mode
# and returns it, truthy, so the with statement enters torch.no_grad().
# The validation loop is already under no_grad.
import torch


class Trainer:
    def __init__(self, train_dataloader, valid_dataloader, device="cuda"):
        self.net = torch.nn.Linear(8, 2).to(device)
        self.train_dataloader = train_dataloader
        self.valid_dataloader = valid_dataloader
        self.device = device

    def fit(self, epochs):
        optimizer = torch.optim.Adam(self.net.parameters(), fused=True)
        for epoch in range(epochs):
            self.net.train()
            for x, y in self.train_dataloader:
                loss = torch.nn.functional.cross_entropy(self.net(x.to(self.device)), y.to(self.device))
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            with self.net.eval() and torch.no_grad():
                correct = 0
                for k, data in enumerate(self.valid_dataloader):
                    x, y = data
                    correct += (self.net(x.to(self.device)).argmax(1) == y.to(self.device)).sum()
            print(epoch, correct)

    def test(self):
        self.net.eval()
        correct = 0
        for k, data in enumerate(self.valid_dataloader):  # want: MEM003
            x, y = data
            correct += (self.net(x.to(self.device)).argmax(1) == y.to(self.device)).sum()
        return correct
