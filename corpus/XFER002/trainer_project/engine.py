import torch


class Fitter:
    def __init__(self, model, loader, device):
        self.model = model.to(device)
        self.loader = loader
        self.device = device

    def fit(self, optimizer):
        for inputs, labels in self.loader:
            inputs = inputs.to(self.device)  # want: XFER002
            labels = labels.to(self.device)  # want: XFER002
            loss = torch.nn.functional.cross_entropy(self.model(inputs), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def evaluate(model, loader, device):
    # run.py passes a loader without pin_memory: nothing to say here.
    with torch.no_grad():
        for batch in loader:
            x, y = batch
            x = x.to(device)
            model(x)


def score(model, loader, device):
    # Called by nobody in the project: the loader is unknown.
    with torch.no_grad():
        for x, y in loader:
            x = x.to(device)
            model(x)


def replay(model, loader, device):
    # run.py passes the project's own DataLoader class (buffers.py).
    for x, y in loader:
        x = x.to(device)
        model(x)
