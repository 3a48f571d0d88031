# gpuopt-env: target-gpu=h100 torch=1.13
# A script pinned below PyTorch 2.0, checked for an H100: PyTorch's builds
# run on Hopper (sm_90) from 2.0, where set_to_none=True is the default, so
# the pin is the thing to lift and the argument would then change nothing
# (blind samples S24F, S26B, S26J, S26L). Silent. The same file checked for
# an A100 (cases without a target) gets the finding.
import torch

model = torch.nn.Linear(512, 512).cuda()
optimizer = torch.optim.AdamW(model.parameters())
for step in range(1000):
    x = torch.randn(64, 512, device="cuda")
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
