# A 512-wide MLP trained on the CPU: a GPU pays here, DEV001 reports it.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(1000):  # want: DEV001
    x, y = torch.randn(256, 784), torch.randint(0, 10, (256,))
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
