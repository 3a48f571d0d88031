# dead_method.py with the attend method called by the forward: the
# attribute stays on the CPU while the module moves, and is copied every
# step.
import torch
import torch.nn as nn
from torch.autograd import Variable


class RobustLog(nn.Module):
    def __init__(self, hidden=128, attention=32):
        super().__init__()
        self.lstm = nn.LSTM(64, hidden, batch_first=True)
        self.w_omega = Variable(torch.zeros(hidden, attention))  # want: CACHE002
        self.fc = nn.Linear(attention, 2)

    def attend(self, out):
        return torch.tanh(out @ self.w_omega.to(out.device))

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(self.attend(out[:, -1]))


net = RobustLog().cuda()
opt = torch.optim.Adam(net.parameters(), lr=1e-3, fused=True)
for step in range(100):
    loss = net(torch.randn(32, 10, 64, device="cuda")).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
