# The model comes from a factory gpuopt does not follow (seed 003's
# AutoDevice wrapper, or an imported builder): silent.
import torch
from torch.utils.data import DataLoader, TensorDataset
from mymodels import build_model

model = build_model("resnet")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(8, 4), torch.randn(8, 1)), batch_size=2)
for x, y in loader:
    torch.nn.functional.mse_loss(model(x), y).backward()
    opt.step()
