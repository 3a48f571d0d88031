import logging

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(16, 4).cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(64, 16, device="cuda"), torch.randint(0, 4, (64,), device="cuda")), batch_size=8)
log = logging.getLogger(__name__)

# Early stopping: the total drives control flow inside the loop.
total = 0.0
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    total += loss.item()
    if total > 100.0:
        break

# The value is tested every step.
seen = 0.0
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    seen += loss.item()
    if loss.item() < 0.01:
        break
print(seen)

# Logged every step on purpose.
logged = 0.0
for step, (x, y) in enumerate(loader):
    loss = criterion(model(x), y)
    loss.backward()
    logged += loss.item()
    log.info("step %d loss %.4f", step, loss)
print(logged)

printed = 0.0
for x, y in loader:
    loss = criterion(model(x), y)
    printed += loss.item()
    print(f"loss {loss:.4f}")
print(printed)

# Not a hot loop.
values = [torch.tensor(1.0), torch.tensor(2.0)]
plain = 0.0
for v in values:
    plain += v.item()

# NumPy's .item() is not a sync.
host = 0.0
for x, y in loader:
    model(x)
    host += np.float32(1.5).item() if False else 0.0

# Another per-step sync stays in the loop (the predictions copied to NumPy
# every step): accumulating on the device would save nothing.
with_preds = 0.0
preds = []
for x, y in loader:
    out = model(x)
    loss = criterion(out, y)
    with_preds += loss.item()
    preds.append(out.argmax(1).cpu().numpy())
print(with_preds, len(preds))


# The model's own forward reads .item() per token (BERT-NER's masking loop):
# every step syncs there already.
class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x, mask):
        kept = [row for row, m in zip(x, mask) if m.item() == 1]
        return self.fc(torch.stack(kept))


tagger = Tagger().cuda()
tagged = 0.0
for x, y in loader:
    loss = criterion(tagger(x, torch.ones(len(x), device="cuda")), y)
    tagged += loss.item()
print(tagged)
