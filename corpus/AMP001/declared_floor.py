# gpuopt-env: torch-floor=1.6
# A project that declares `torch>=1.6` (blind sample S18A's BraTS
# trainer): torch.autocast arrived in 1.10, so the rewrite would break
# 1.6-1.9, and the old spelling is the one every release the project
# supports runs. A deprecation with no speed in it: not reported until
# the floor rises (blind sample S37Q judged such findings false).
import torch

model = torch.nn.Linear(8, 8).cuda()
x = torch.randn(4, 8, device="cuda")
with torch.cuda.amp.autocast():
    y = model(x)
