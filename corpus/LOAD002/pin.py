import torch
from torch.utils.data import DataLoader

NUM_WORKERS = 4
model = torch.nn.Linear(8, 2).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
a = DataLoader(list(range(8)), batch_size=2, num_workers=8)  # want: LOAD002
b = DataLoader(  # want: LOAD002
    list(range(8)),
    batch_size=2,
    num_workers=NUM_WORKERS,
)
c = DataLoader(list(range(8)), batch_size=2, num_workers=8, pin_memory=False)
d = DataLoader(list(range(8)), batch_size=2, num_workers=args.workers)  # want: LOAD002
for loader in (a, b, c, d):
    pass
for x in a:
    model(x.cuda()).sum().backward()
for x in b:
    model(x.cuda()).sum().backward()
for x in c:
    model(x.cuda()).sum().backward()
for x in d:
    model(x.cuda()).sum().backward()
