import torch
from torch import nn
from torch.utils.data import DataLoader

model = nn.Linear(16, 4).cuda()
optimizer = torch.optim.AdamW(model.parameters())
train_loader = DataLoader(list(range(10)), batch_size=2)
val_loader = DataLoader(list(range(10)), batch_size=2)

for epoch in range(3):
    model.train()
    for x, y in train_loader:
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    model.eval()
    correct = 0
    for x, y in val_loader:  # want: MEM003
        # predictions
        preds = model(x.cuda()).argmax(-1)
        doc = """a multi-line string
keeps its lines
        exactly"""

        correct += (preds == y.cuda()).sum()
    else:
        print(correct)


def evaluate(net, loader):
    net.eval()
    outs = []
    for batch in loader:  # want: MEM003
        for item in batch:
            outs.append(net(item))
    return outs


class Runner:
    def __init__(self, net, loader):
        self.net = net
        self.loader = loader

    def evaluate(self):
        self.net.eval()
        for x in self.loader:  # want: MEM003
            self.net(x)
