# A sampler keeps a frame every 20 steps: the copy runs on 1 step in 20,
# not per step (blind sample S16O's conditional diffusion). The copy on
# every step is reported.
import torch

model = torch.nn.Sequential(torch.nn.Conv2d(1, 64, 3, padding=1), torch.nn.ReLU(), torch.nn.Conv2d(64, 1, 3, padding=1)).cuda()
frames, steps = [], []
x = torch.randn(64, 1, 28, 28, device="cuda")
for i in range(400, 0, -1):
    x = model(x)
    if i % 20 == 0 or i < 8:
        frames.append(x.detach().cpu())
    steps.append(x.mean().cpu())  # want: SYNC001
