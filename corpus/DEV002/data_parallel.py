# DataParallel scatters CPU inputs to the GPUs itself.
import torch
from torch.utils.data import DataLoader, TensorDataset

model = torch.nn.DataParallel(torch.nn.Linear(4, 1)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(8, 4), torch.randn(8, 1)), batch_size=2)
for x, y in loader:
    out = model(x)
    torch.nn.functional.mse_loss(out, y.to(out.device)).backward()
    opt.step()
