# A trainer class: loop_train() trains through train() and train_step();
# test() only evaluates checkpoints.
import torch


class Trainer:
    def __init__(self, model, optimizer, device):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.device = device

    def train_step(self, x, y):
        loss = torch.nn.functional.cross_entropy(self.model(x).flatten(0, 1), y.flatten())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()

    def train(self, loader):
        for x, y in loader:
            self.train_step(x.to(self.device), y.to(self.device))

    def loop_train(self, epochs, loader):
        for _ in range(epochs):
            self.train(loader)

    @torch.no_grad()
    def test(self, checkpoint, loader):
        self.model.load_state_dict(torch.load(checkpoint))
        return sum((self.model(x.to(self.device)).argmax(-1) == y.to(self.device)).float().mean().item() for x, y in loader)
