# gpuopt-env: torch=2.4
# A loader built anew in every epoch (to resume mid-epoch) starts new workers whatever it is told, and a loader read for
# one epoch restarts none (blind sample S16K's minimind, baby-llama2). A
# fold's loader read for many epochs keeps its finding.
import torch
from torch.utils.data import DataLoader, TensorDataset

x_train, y_train = torch.randn(4096, 512), torch.randint(0, 10, (4096,))
model = torch.nn.Linear(512, 10).cuda()
optimizer = torch.optim.AdamW(model.parameters(), fused=True)


epochs, start_step = 3, 0
for epoch in range(epochs):
    loader = DataLoader(TensorDataset(x_train[start_step if epoch == 0 else 0:], y_train), batch_size=32, num_workers=8, pin_memory=True)
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.cuda(non_blocking=True)), y.cuda(non_blocking=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

max_epoch = 1
single = DataLoader(TensorDataset(x_train, y_train), batch_size=32, num_workers=8, pin_memory=True)
for epoch in range(max_epoch):
    for x, y in single:
        loss = torch.nn.functional.cross_entropy(model(x.cuda(non_blocking=True)), y.cuda(non_blocking=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

for fold in range(5):
    fold_loader = DataLoader(TensorDataset(x_train, y_train), batch_size=32, num_workers=8, pin_memory=True)  # want: LOAD003
    for epoch in range(epochs):
        for x, y in fold_loader:
            loss = torch.nn.functional.cross_entropy(model(x.cuda(non_blocking=True)), y.cuda(non_blocking=True))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
