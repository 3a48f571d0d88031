# A temperature learned by hand (requires_grad set after it is built, its
# own optimizer) is a parameter, not a constant: a non-persistent buffer
# would drop it from checkpoints. The constant beside it is reported.
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim


class PolicyNet(nn.Module):
    def __init__(self, lr):
        super().__init__()
        self.fc1 = nn.Linear(3, 128)
        self.log_alpha = torch.tensor(np.log(0.01))
        self.log_alpha.requires_grad = True
        self.log_alpha_optimizer = optim.Adam([self.log_alpha], lr=lr)
        self.scale = torch.tensor([2.0, 2.0])  # want: CACHE002

    def forward(self, x):
        return self.fc1(x) * self.scale * self.log_alpha.exp()


class Temperature(nn.Module):
    def __init__(self):
        super().__init__()
        self.t = torch.zeros(1)
        self.opt = optim.SGD([self.t], lr=0.1)


net = PolicyNet(1e-3).cuda()
