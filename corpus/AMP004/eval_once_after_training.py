# gpuopt-env: target-gpu=h100
# The validation pass runs every epoch and is worth autocast: it joins the
# training step's finding, whose fix wraps it too. The test pass runs
# once, after training, and is a small share of the run whose bf16
# outputs would only shift the reported metrics: left alone.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 512, 3, padding=1)
        self.fc = nn.Linear(512, 10)

    def forward(self, x):
        return self.fc(F.relu(self.conv(x)).mean((2, 3)))


def train_epoch(model, loader, optimizer):
    model.train()
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = F.cross_entropy(model(x), y)  # want: AMP004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def validate(model, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            out = model(x.cuda())
            correct += (out.argmax(1) == y.cuda()).sum()
    return correct


def test(model, loader):
    model.eval()
    preds = []
    with torch.no_grad():
        for x, _ in loader:
            preds.append(model(x.cuda()).argmax(1))
    return torch.cat(preds)


def main(train_loader, val_loader, test_loader, epochs=90):
    model = Net().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for epoch in range(epochs):
        train_epoch(model, train_loader, optimizer)
        print(epoch, validate(model, val_loader))
    return test(model, test_loader)
