# A tensor attribute read only by a method that nothing calls (an
# attention variant the forward never uses: blind sample S28E's logdeep):
# it never meets a device, and registering it changes nothing. Read by a
# method the forward calls (live_method.py), it is reported.
import torch
import torch.nn as nn
from torch.autograd import Variable


class LogAnomaly(nn.Module):
    def __init__(self, hidden=128, attention=32):
        super().__init__()
        self.lstm = nn.LSTM(64, hidden, batch_first=True)
        self.w_omega = Variable(torch.zeros(hidden, attention))
        self.fc = nn.Linear(hidden, 2)

    def attention_net(self, out):
        return torch.tanh(out @ self.w_omega.to(out.device))

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1])


net = LogAnomaly().cuda()
opt = torch.optim.Adam(net.parameters(), lr=1e-3, fused=True)
for step in range(100):
    loss = net(torch.randn(32, 10, 64, device="cuda")).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
