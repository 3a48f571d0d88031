# A parameter's initial values drawn with NumPy in __init__ and copied to
# the GPU once (TuckER's core tensor): CuPy would speed up work that runs
# once. The same draw in every step of a loop is reported.
import numpy as np
import torch


class Core(torch.nn.Module):
    def __init__(self, d1=200, d2=200):
        super().__init__()
        self.W = torch.nn.Parameter(torch.tensor(np.random.uniform(-1, 1, (d2, d1, d1)), dtype=torch.float, device="cuda"))

    def forward(self, x):
        return x @ self.W.view(self.W.size(0), -1)


core = Core()
for step in range(1000):
    noise = torch.tensor(np.random.uniform(-1, 1, (200, 200, 200)), dtype=torch.float, device="cuda")  # want: CUPY001
    out = core(noise.view(-1, 40000)[:8])
