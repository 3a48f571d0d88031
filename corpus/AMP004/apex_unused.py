# gpuopt-env: target-gpu=h100
# apex is imported in case it is installed, and never used: the step still
# runs in fp32.
import torch

try:
    from apex import amp, optimizers
except ImportError:
    pass

model = torch.nn.Linear(4096, 4096).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for x in torch.randn(10, 64, 4096).cuda():
    loss = model(x).pow(2).mean()  # want: AMP004
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
