import torch
from torch.utils.data import DataLoader, TensorDataset


def pick_workers():
    return 4


model = torch.nn.Linear(8, 2).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = TensorDataset(torch.randn(256, 8), torch.randn(256, 2))
# A call gives the count: calling it twice may not give the same answer, so
# the finding stays a hint that assumes it is above 0.
loader = DataLoader(data, batch_size=32, num_workers=pick_workers(), pin_memory=True)  # want: LOAD003

for epoch in range(3):
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
