"""A pinned loader built by a helper, handed to a runner class and kept on
self: its batches are copied in another method."""
import torch
from torch.utils.data import DataLoader


def make_loader(dataset, batch_size):
    return DataLoader(dataset, batch_size=batch_size, pin_memory=True, shuffle=True)


class Runner:
    def __init__(self, model, data, gpu_id):
        self.gpu_id = gpu_id
        self.model = model.to(gpu_id)
        self.data = data

    def run_epoch(self):
        for inputs, labels in self.data:
            inputs = inputs.to(self.gpu_id)  # want: XFER002
            labels = labels.to(self.gpu_id)  # want: XFER002
            self.model(inputs).sum().backward()


def main(dataset):
    model = torch.nn.Linear(4, 2)
    runner = Runner(model, make_loader(dataset, 32), 0)
    for _ in range(2):
        runner.run_epoch()
