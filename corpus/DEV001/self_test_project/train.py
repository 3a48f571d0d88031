# The project's training imports the loss and runs on the GPU.
import torch
import torch.nn as nn

from losses import SplitSoftmaxLoss

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
embed = nn.Embedding(10000, 400).to(device)
crit = SplitSoftmaxLoss(400, 10000).to(device)
opt = torch.optim.SGD(list(embed.parameters()) + list(crit.parameters()), lr=1)
for step in range(1000):
    x = torch.randint(0, 10000, (64,), device=device)
    loss = crit(embed(x), x)
    opt.zero_grad()
    loss.backward()
    opt.step()
