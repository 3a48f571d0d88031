# Scripts that place tensors on a device somewhere: silent.
import torch
from torch.utils.data import DataLoader, TensorDataset

loader = DataLoader(TensorDataset(torch.randn(8, 4), torch.randn(8, 1)), batch_size=2)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

for x, y in loader:
    x = x.to(torch.float32)  # a dtype conversion is no placement ...
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()

# ... but a deliberate CPU device is one.
cpu = torch.device("cpu")
