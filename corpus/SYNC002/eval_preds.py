import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(4096, 4096).cuda()
criterion = nn.CrossEntropyLoss()
# (The datasets live on the GPU: evaluation passes over a loader of host
# samples are left alone, see evaluation_over_loader.py.)
loader = DataLoader(TensorDataset(torch.randn(64, 16, device="cuda"), torch.randint(0, 4, (64,), device="cuda")), batch_size=8)

# Hugging Face's evaluation loop: the predictions are copied to NumPy on
# every step (in either branch), so the loss's .item() costs no extra sync.
eval_loss = 0.0
preds = None
model.eval()
for x, y in loader:
    x, y = x.cuda(), y.cuda()
    with torch.no_grad():
        logits = model(x)
        eval_loss += criterion(logits, y).mean().item()
    if preds is None:
        preds = logits.detach().cpu().numpy()
    else:
        preds = np.append(preds, logits.detach().cpu().numpy(), axis=0)

# Only the first batch is copied: the accumulation is what syncs.
total = 0.0
first = None
for x, y in loader:
    x, y = x.cuda(), y.cuda()
    with torch.no_grad():
        logits = model(x)
        total += criterion(logits, y).item()  # want: SYNC002
    if first is None:
        first = logits.detach().cpu().numpy()
print(eval_loss, total, preds.shape, first.shape)
