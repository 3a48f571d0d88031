# The optimizer is built over CPU parameters; a Trainer moves the model in
# place (nn.Module.to moves the very parameters the optimizer holds) before
# the first step.
import torch


class Trainer:
    def __init__(self, model, optimizer, gpu_id):
        self.model = model.to(gpu_id)
        self.optimizer = optimizer

    def step(self, x, y):
        self.optimizer.zero_grad()
        torch.nn.functional.mse_loss(self.model(x), y).backward()
        self.optimizer.step()


class Keeper:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer


def build():
    model = torch.nn.Linear(20, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, weight_decay=1e-4)  # want: OPT001
    return model, optimizer


def build_kept():
    model = torch.nn.Linear(20, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, weight_decay=1e-4)
    return model, optimizer


def build_then_cpu():
    model = torch.nn.Linear(20, 1)
    optimizer = torch.optim.Adam(model.parameters())
    Trainer(model, optimizer, "cpu")
    return optimizer


def main(device):
    model, optimizer = build()
    Trainer(model, optimizer, device)
    # Never moved: stays on the CPU.
    kept, kept_opt = build_kept()
    Keeper(kept, kept_opt)


if __name__ == "__main__":
    main(0)
