# Full-batch training on tensors: found, but the action is not offered (the
# data is not a DataLoader's batches).
import torch

X = torch.randn(4096, 512)
Y = torch.randn(4096, 1)
model = torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)

def train():
    for step in range(100):  # want: DEV001
        loss = ((model(X) - Y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

train()
