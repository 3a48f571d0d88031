# A script that builds its module here and never names CUDA: nothing moves
# the module, so a plain tensor attribute stays with it on the CPU.
import torch
import torch.nn as nn


class Vtrace(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
        self.clip_rho = torch.tensor(1.0, dtype=torch.float)

    def forward(self, x):
        return torch.min(self.fc(x), self.clip_rho)


model = Vtrace()
print(model(torch.randn(3, 4)))
