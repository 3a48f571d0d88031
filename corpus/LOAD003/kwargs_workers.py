"""Workers set through **kwargs on the GPU path, iterated every epoch,
never persistent: reported, with the setting to add to the dict (a keyword
beside the splat would raise on the CPU path, where there are no workers)."""
import torch
from torch.utils.data import DataLoader, TensorDataset

use_cuda = torch.cuda.is_available()
device = torch.device("cuda" if use_cuda else "cpu")
model = torch.nn.Linear(8, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = TensorDataset(torch.randn(256, 8), torch.randn(256, 2))

kwargs = {"num_workers": 2, "pin_memory": True} if use_cuda else {}
loader = DataLoader(data, batch_size=32, shuffle=True, **kwargs)  # want: LOAD003

for epoch in range(3):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, len(loader.dataset))
