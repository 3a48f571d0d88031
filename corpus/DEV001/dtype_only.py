# `.to(torch.float32)` and `.to(x.dtype)` convert dtypes: still on the CPU.
import torch
from torch.utils.data import DataLoader, TensorDataset

loader = DataLoader(TensorDataset(torch.randn(8, 16384, dtype=torch.float64), torch.randn(8, 1024)), batch_size=2)
model = torch.nn.Linear(16384, 1024)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

for x, y in loader:  # want: DEV001
    x = x.to(torch.float32)
    loss = torch.nn.functional.mse_loss(model(x), y.to(x.dtype))
    loss.backward()
    opt.step()
