import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(4096, 4096).cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(64, 16, device="cuda"), torch.randint(0, 4, (64,), device="cuda")), batch_size=8)

for epoch in range(3):
    running_loss = 0.0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()  # want: SYNC002
    print(f"epoch {epoch}: {running_loss / len(loader):.4f}")


def evaluate():
    total, seen = 0.0, 0
    weighted = 0.0
    with torch.no_grad():
        for x, y in loader:
            out = model(x)
            batch_loss = criterion(out, y)
            total += batch_loss.item()  # want: SYNC002
            weighted += batch_loss.item() * x.size(0)  # want: SYNC002
            seen += len(y)
    return total / len(loader), weighted / seen
