# gpuopt-env: gpu-host=h100 cpus=16
# gpuopt runs on the GPU host itself (NVML profile): the host's count,
# capped at 8, is written as a literal.
import torch
from torch.utils.data import DataLoader
from torchvision.datasets import ImageFolder

dataset = ImageFolder("data/train")
model = torch.nn.Linear(8, 2).cuda()
loader = DataLoader(dataset, batch_size=8, shuffle=True)  # want: LOAD001
if __name__ == "__main__":
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
        loss.backward()
