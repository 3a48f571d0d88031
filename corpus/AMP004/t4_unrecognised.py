# gpuopt-env: target-gpu=t4
# fp16 on a T4 where the step is not a plain `opt.step()` after the
# backward (a closure): a hint, no fix.
import torch
from torch import nn

model = nn.Linear(4096, 4096).cuda()
optimizer = torch.optim.LBFGS(model.parameters())
for step in range(10):
    x = torch.randn(4, 4096, device="cuda")
    loss = model(x).sum()  # want: AMP004
    loss.backward()
    optimizer.step(lambda: loss)
