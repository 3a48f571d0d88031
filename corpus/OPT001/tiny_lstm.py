# A price forecaster of hidden 8 (a few hundred parameters), trained
# full-batch: the step is a few dozen launches, and a fused update saves
# one of them. No fused=True advice. Silent.
import torch
from torch import nn


class LSTMRegression(nn.Module):
    def __init__(self, input_size, hidden_size, output_size=1, num_layers=2):
        super().__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers)
        self.fc = nn.Linear(hidden_size, output_size)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(out)


def train(train_x, train_y):
    model = LSTMRegression(5, 8, output_size=1, num_layers=2).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    train_x, train_y = train_x.cuda(), train_y.cuda()
    for i in range(200):
        loss = nn.functional.mse_loss(model(train_x), train_y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
