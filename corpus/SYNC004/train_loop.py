import torch
from torch import nn
from torch.utils.data import DataLoader

model = nn.Linear(16, 4).cuda()
optimizer = torch.optim.AdamW(model.parameters())
loader = DataLoader(list(range(10)), batch_size=2)

for epoch in range(3):
    for x, y in loader:
        loss = nn.functional.mse_loss(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        torch.cuda.empty_cache()  # want: SYNC004
    # once per epoch: a phase end, cheap
    torch.cuda.empty_cache()


def evaluate(net, batches):
    # Parameters: what they hold is unknown, so the loop is not known hot.
    for x in batches:
        net(x)
        torch.cuda.empty_cache()


for x, y in loader:
    torch.cuda.empty_cache()  # want: SYNC004


for x, y in loader:
    model(x)
    torch.cuda.empty_cache()  # want: SYNC004
