# gpuopt-env: target-gpu=h100
# NVIDIA apex chooses mixed precision (amp.initialize, behind --use-amp as
# the project's README runs it): no autocast advice.
import torch
from apex import amp

model = torch.nn.Linear(4096, 4096).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
model, optimizer = amp.initialize(model, optimizer, opt_level="O1")
for x in torch.randn(10, 64, 4096).cuda():
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    with amp.scale_loss(loss, optimizer) as scaled_loss:
        scaled_loss.backward()
    optimizer.step()
