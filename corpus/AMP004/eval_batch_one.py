# gpuopt-env: target-gpu=h100
# Validation one sample at a time (batch_size=1): small launch-bound
# kernels, where autocast's casts cost more than they save: no finding
# (blind samples KK, II and WW judged even a hedged hint false). The
# training loop's batch is 128: its finding stays, wrapped in fp16
# autocast with a GradScaler (cuDNN runs the GRU in fp16 under any
# autocast, which needs loss scaling).
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Stacker(nn.Module):
    def __init__(self, features=2048):
        super().__init__()
        self.conv = nn.Conv2d(features, 512, kernel_size=1)
        self.gru = nn.GRU(512, 512, batch_first=True, bidirectional=True)
        self.head = nn.Linear(1024, 6)

    def forward(self, x):
        h = self.conv(x).flatten(2).transpose(1, 2)
        out, _ = self.gru(h)
        return self.head(out)


data = TensorDataset(torch.randn(256, 2048, 8, 1), torch.rand(256, 8, 6))
train_loader = DataLoader(data, batch_size=128, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True)
val_loader = DataLoader(data, batch_size=1, num_workers=4, pin_memory=True, persistent_workers=True)
model = Stacker().cuda()
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
torch.backends.cudnn.benchmark = True
for epoch in range(3):
    model.train()
    for x, y in train_loader:
        x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
        loss = criterion(model(x), y)  # want: AMP004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        for x, y in val_loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            logit = model(x)
            val_loss = criterion(logit, y)
