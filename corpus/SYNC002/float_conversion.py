# float(loss) and int(t) wait for the GPU just as .item() does. Only a
# tensor's conversion is reported: float() of a host number is free.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(4096, 4096).cuda()
criterion = nn.CrossEntropyLoss()
loader = DataLoader(TensorDataset(torch.randn(64, 16, device="cuda"), torch.randint(0, 4, (64,), device="cuda")), batch_size=8)

loss_sum = 0.0
spread = 0.0
correct = 0
seen = 0.0
losses = []
for x, y in loader:
    out = model(x)
    loss = criterion(out, y)
    loss.backward()
    loss_sum += float(loss)  # want: SYNC002
    spread += float(out.std() + out.mean())  # want: SYNC002
    correct += int((out.argmax(1) == y).sum())  # want: SYNC002
    seen += float(len(y))
    losses.append(float(loss))  # want: SYNC002
print(loss_sum, spread, correct, seen)
print(sum(losses) / len(losses))
