# Factories moved to another tensor's device and dtype on every forward:
# `.type_as(x)` and `.to(x)` copy from the CPU as `.to(device)` does, and
# `dtype=x.dtype, device=x.device` builds them in place. A `.to(name)`
# whose name may be a device or a dtype (pad's ref), and a factory whose
# values depend on the dtype (a full of 0.1), are left alone.
import torch
import torch.nn as nn
from torch.autograd import Variable


def pad(n, ref):
    return torch.zeros(n, 3).to(ref)


class Registration(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

    def forward(self, template, kind):
        est_R = torch.eye(3).to(template).view(1, 3, 3).expand(template.size(0), 3, 3)  # want: XFER001
        est_t = torch.zeros(1, 3).type_as(template)  # want: XFER001
        h = Variable(torch.zeros(template.size(0), 3)).type_as(template)  # want: XFER001
        bias = torch.full((1, 3), 0.1).type_as(template)
        mask = pad(1, kind)
        return self.fc(template) @ est_R[0] + est_t + h + bias + mask


model = Registration().cuda()
opt = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
for step in range(1000):
    template = torch.randn(32, 3, device="cuda")
    loss = model(template, torch.float32).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
