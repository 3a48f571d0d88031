import torch
from torch.utils.data import DataLoader, IterableDataset, TensorDataset


class Stream(IterableDataset):
    def __iter__(self):
        yield torch.zeros(8)


model = torch.nn.Linear(8, 2).cuda()
# Workers would each replay the whole stream.
stream = DataLoader(Stream(), batch_size=2)
for batch in stream:
    out = model(batch.cuda())

# Already has workers, or a count the rule cannot see.
workers = DataLoader(list(range(8)), batch_size=2, num_workers=4, pin_memory=True, persistent_workers=True)
for batch in workers:
    out = model(batch.cuda())
opts = {"num_workers": 2}
hidden = DataLoader(list(range(8)), **opts)
for batch in hidden:
    out = model(batch.cuda())

# Not iterated by a model or training loop.
idle = DataLoader(list(range(8)), batch_size=2)
for batch in idle:
    print(batch)


# A few test samples drawn once, then break: workers would only add start-up.
samples_loader = DataLoader(TensorDataset(torch.randn(64, 8)), batch_size=1)
kept = []
for i, (x,) in enumerate(samples_loader):
    kept.append(model(x.cuda()))
    if i == 7:
        break
