# An epoch loop that calls the functions holding the step loops: a cache
# release between the training and evaluation phases runs once per epoch,
# not once per step.
import torch
from torch.utils.data import DataLoader

loader = DataLoader([torch.ones(2)] * 8, batch_size=2)
model = torch.nn.Linear(2, 2).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train_one_epoch():
    for batch in loader:
        loss = model(batch.cuda()).sum()
        loss.backward()
        optimizer.step()


def run_epoch():
    train_one_epoch()


for epoch in range(3):
    train_one_epoch()
    torch.cuda.empty_cache()

for epoch in range(3):
    run_epoch()  # two calls deep
    torch.cuda.empty_cache()

for batch in loader:
    print(model(batch.cuda()))
    torch.cuda.empty_cache()  # want: SYNC004
