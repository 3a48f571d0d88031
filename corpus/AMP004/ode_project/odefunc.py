import torch.nn as nn
from torchdiffeq import odeint_adjoint as odeint


class ODEfunc(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 4096), nn.Softplus(), nn.Linear(4096, dim))

    def forward(self, t, x):
        return self.net(x)


class CNF(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.odefunc = ODEfunc(dim)

    def forward(self, x, integration_times):
        return odeint(self.odefunc, x, integration_times, atol=1e-5, rtol=1e-5, method="dopri5")[-1]
