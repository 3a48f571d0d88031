import torch
from torch import nn

# No convolution: cuDNN conv algorithms are not involved.
model = nn.Linear(8, 2).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.randn(2, 8, device="cuda")).sum()
    loss.backward()
    optimizer.step()
