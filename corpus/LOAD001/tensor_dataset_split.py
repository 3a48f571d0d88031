# An in-memory TensorDataset split 80/20 (blind sample S32J's CMAPSS
# regressor): its items are slices of two tensors, which workers would
# only copy between processes. Silent on both halves.
import torch
from torch.utils.data import DataLoader, TensorDataset, random_split

X = torch.randn(20000, 30, 24)
y = torch.randn(20000, 1)
full_ds = TensorDataset(X, y)
train_ds, val_ds = random_split(
    full_ds,
    [16000, 4000],
    generator=torch.Generator().manual_seed(0),
)
train_loader = DataLoader(train_ds, batch_size=256, shuffle=True)
val_loader = DataLoader(val_ds, batch_size=256, shuffle=False)
model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(720, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 1)).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for epoch in range(100):
    for xb, yb in train_loader:
        loss = (model(xb.cuda()) - yb.cuda()).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        val = sum((model(xb.cuda()) - yb.cuda()).pow(2).mean() for xb, yb in val_loader)
