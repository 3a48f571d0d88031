import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(4096, 4096).cuda()
loader = DataLoader(TensorDataset(torch.randn(64, 16, device="cuda"), torch.randint(0, 4, (64,), device="cuda")), batch_size=8)

# Starts as an int: the sum may count integers, gpuopt does not guess.
correct = 0
with torch.no_grad():
    for x, y in loader:
        pred = model(x).argmax(dim=1)
        correct += (pred == y).sum().item()  # want: SYNC002
print(correct / 64)


# The value's type is unknown (a helper's result).
def helper(batch):
    return batch


acc = 0.0
for x, y in loader:
    model(x)
    acc += helper(x).item()  # want: SYNC002
print(acc)


device = torch.device("cuda")
opt = torch.optim.SGD(model.parameters(), lr=0.1)


# A loss appended on every step: the append's .item() is the step's only
# wait. A hint: the list's readers after the loop see numbers.
def train_losses(loader, epochs):
    for epoch in range(epochs):
        losses = []
        for i, (x, y) in enumerate(loader):
            loss = (model(x.to(device)) - y.to(device)).pow(2).mean()
            losses.append(loss.item())  # want: SYNC002
            if (i + 1) % 100 == 0:
                print(loss.item())
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(sum(losses) / len(losses))


# The step copies the outputs to the host anyway (a metric handed in):
# nothing saved. Silent.
def train_scored(loader, score):
    scores, losses = [], []
    for x, y in loader:
        out = model(x.to(device))
        loss = (out - y.to(device)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        scores.append(score(y, out))
    return losses, scores
