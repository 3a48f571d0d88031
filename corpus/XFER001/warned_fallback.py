# A fallback for input the training path always provides (blind sample
# S33AW's TCN: `if last is None:` warns "no valid input" and returns
# zeros built on the CPU): not a step's work. Silent. The same zeros
# built on every forward are reported.
import torch
import torch.nn as nn


class TCN(nn.Module):
    def __init__(self, hidden=256):
        super().__init__()
        self.hidden = hidden
        self.net = nn.Conv1d(8, hidden, 3, padding=1)

    def forward(self, x, last=None):
        if last is None:
            print("warning: no valid input, returning zeros")
            return torch.zeros(x.size(0), self.hidden).to(x.device)
        state = torch.zeros(x.size(0), self.hidden, x.size(2)).to(x.device)  # want: XFER001
        return (self.net(x) + state).mean(2) + last


model = TCN().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for step in range(1000):
    x = torch.randn(64, 8, 128, device="cuda")
    loss = model(x, torch.zeros(64, 256, device="cuda")).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
