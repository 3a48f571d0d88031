import torch
from torch import nn

model = nn.Linear(8, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
dataloader = [torch.randn(4, 8) for _ in range(8)]
target_batch_size, actual_batch_size = 32, 4

# Seed 000, "Gradient Accumulation": the loss is already divided by the
# number of accumulated steps, so MEM002 stays silent.
grad_accum_steps = max(1, target_batch_size // actual_batch_size)
for i, batch in enumerate(dataloader):
    loss = model(batch).mean() / grad_accum_steps
    loss.backward()
    if (i + 1) % grad_accum_steps == 0:
        optimizer.step()
        optimizer.zero_grad()

# Seed 003, "梯度累积技巧": same, with a criterion.
criterion = nn.MSELoss()
accumulation_steps = 4
loader = [(torch.randn(4, 8), torch.randn(4, 1)) for _ in range(8)]
for i, (inputs, targets) in enumerate(loader):
    outputs = model(inputs)
    loss = criterion(outputs, targets) / accumulation_steps
    loss.backward()
    if (i + 1) % accumulation_steps == 0:
        optimizer.step()
        optimizer.zero_grad()
