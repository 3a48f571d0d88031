# A siamese trainer that calls `data.to(device)` as a statement of its own
# (blind sample S23M's siamese-net): Tensor.to returns the copy, which is
# dropped, so the line moves nothing and non_blocking would change
# nothing; XFER002 stays silent there and reports the assigned copy.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda")
model = nn.Sequential(nn.Flatten(), nn.Linear(784, 10)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
loader = DataLoader(TensorDataset(torch.randn(1000, 2, 28, 28), torch.randint(0, 10, (1000,))), batch_size=100, num_workers=2, pin_memory=True)

for epoch in range(10):
    for data, target in loader:
        data.to(device)
        target = target.to(device)  # want: XFER002
        loss = nn.functional.cross_entropy(model(torch.randn(100, 1, 28, 28, device=device)), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
