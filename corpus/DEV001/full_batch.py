# Full-batch training on tensors: found, but the action is not offered (the
# data is not a DataLoader's batches).
import torch

X = torch.randn(100, 3)
Y = torch.randn(100, 1)
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

def train():
    for step in range(100):  # want: DEV001
        loss = ((model(X) - Y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

train()
