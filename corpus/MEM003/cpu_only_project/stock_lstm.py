import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class StockLSTM(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.rnn = nn.LSTM(1, hidden, 2, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        y, _ = self.rnn(x)
        return self.out(y[:, -1])


def evaluate(model, loader):
    # no GPU anywhere in this project: the graph costs host memory only
    model.eval()
    total = 0.0
    for x, y in loader:
        total += nn.functional.mse_loss(model(x), y).item()
    return total


model = StockLSTM()
data = TensorDataset(torch.randn(2000, 20, 1), torch.randn(2000, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(50):
    model.train()
    for x, y in DataLoader(data, batch_size=64, shuffle=True):
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(evaluate(model, DataLoader(data, batch_size=256)))
