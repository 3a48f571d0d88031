import torch
from torch import nn
from torch.utils.data import DataLoader

model = nn.Linear(16, 4).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(list(range(10)), batch_size=2)


def train():
    for x, y in loader:
        loss = nn.functional.mse_loss(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
        torch.cuda.synchronize()  # want: SYNC003
        optimizer.zero_grad()


def infer():
    for x, _ in loader:
        with torch.no_grad():
            model(x.cuda())
            torch.cuda.synchronize()  # want: SYNC003
