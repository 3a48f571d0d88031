# gpuopt-env: target-gpu=h100
# Already converted (and a second `gpuopt fix` must change nothing).
import torch
import torchvision

model = torchvision.models.resnet18().cuda().to(memory_format=torch.channels_last)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    x = torch.randn(32, 3, 224, 224, device="cuda")
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = model(x).sum()
    loss.backward()
    opt.step()
