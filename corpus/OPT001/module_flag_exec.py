# nanoGPT's configurator: `exec(open("configurator.py").read())` may set
# any module-level name from the command line, so `resume = False` is no
# proof that the branch never runs: both optimizers are reported.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 10)).cuda()
resume = False
exec(open("configurator.py").read())
if resume:
    optimizer = torch.optim.Adam(model.parameters())  # want: OPT001
    optimizer.load_state_dict(torch.load("ckpt.pt")["optimizer"])
else:
    optimizer = torch.optim.Adam(model.parameters())  # want: OPT001
for epoch in range(100):
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
