import torch
from torch import nn

# Never moved.
cpu_model = nn.Linear(8, 2)
opt = torch.optim.AdamW(cpu_model.parameters())

# Moved after the optimizer is built.
late = nn.Linear(8, 2)
opt = torch.optim.Adam(late.parameters())
late.cuda()

# Conflicting or explicit implementation choices.
gpu = nn.Linear(8, 2).cuda()
opt = torch.optim.Adam(gpu.parameters(), foreach=True)
opt = torch.optim.Adam(gpu.parameters(), fused=False)
opt = torch.optim.Adam(gpu.parameters(), capturable=True)
opt = torch.optim.Adam(gpu.parameters(), differentiable=True)
kw = {"lr": 1e-3}
opt = torch.optim.Adam(gpu.parameters(), **kw)

# Other optimizers have no fused kernel guarantee here.
opt = torch.optim.RMSprop(gpu.parameters())


def train(model, device):
    model.to(device)
    return torch.optim.AdamW(model.parameters())

