"""A runner class that gets its model, optimizer and loader from its
caller and keeps them on self: the step runs in fp32."""
import torch
from torch import nn


class StepRunner:
    def __init__(self, model: nn.Module, optimizer, loader, gpu_id: int):
        self.gpu_id = gpu_id
        self.model = model.to(gpu_id)
        self.optimizer = optimizer
        self.loader = loader

    def _step(self, x, y):
        self.optimizer.zero_grad()
        out = self.model(x)  # want: AMP004
        loss = nn.functional.cross_entropy(out, y)
        loss.backward()
        self.optimizer.step()

    def fit(self, epochs):
        for _ in range(epochs):
            for x, y in self.loader:
                x, y = x.to(self.gpu_id), y.to(self.gpu_id)
                self._step(x, y)


def evaluate(model, loader):
    # The model is a parameter: its use (.eval(), a call) says what it is.
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            correct += (model(x).argmax(1) == y).sum()  # joins the step's hint: its fix wraps this loop too
    return correct
