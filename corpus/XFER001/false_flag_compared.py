# A graph layer whose forward tests a local flag against True (blind
# samples S23C and S23J's Raindrop): `use_beta = False` then `if use_beta
# == True:` never takes its branch, so the copy there is dead code and
# XFER001 stays silent; the else branch runs every step and is reported.
# A test `is not True` of the same flag is live.
import torch
import torch.nn as nn


class Observation(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.lin = nn.Linear(d, d)

    def forward(self, x):
        use_beta = False
        if use_beta == True:
            beta = torch.ones(x.size(0), 1).cuda()
        else:
            beta = torch.zeros(x.size(0), 1).cuda()  # want: XFER001
        if use_beta is not True:
            gamma = torch.ones(x.size(0), 1).cuda()  # want: XFER001
        else:
            gamma = beta
        return self.lin(x) * beta + gamma


model = Observation().cuda()
opt = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
for step in range(1000):
    x = torch.randn(128, 64, device="cuda")
    loss = model(x).pow(2).mean()
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
