import torch
from torch.utils.data import DataLoader

device = torch.device("cuda")
model = torch.nn.Linear(8, 2).to(device)
optimizer = torch.optim.AdamW(model.parameters())
loader = DataLoader(list(range(10)), batch_size=2, num_workers=4, pin_memory=True)

for x, y in loader:
    x, y = x.to(device), y.to(device)  # want: XFER002, XFER002
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()

for step, (inputs, targets) in enumerate(loader):
    inputs = inputs.cuda()  # want: XFER002
    targets_gpu = targets.to(device)  # want: XFER002
    loss = torch.nn.functional.mse_loss(model(inputs), targets_gpu)
    loss.backward()
