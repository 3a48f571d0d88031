# gpuopt-env: torch-floor=1.6
# A project that declares `torch>=1.6` (blind sample S18A's BraTS
# trainer): torch.autocast arrived in 1.10, so the rewrite would break
# 1.6-1.9. Still reported (the old spelling warns on every call from
# 2.4), without a fix.
import torch

model = torch.nn.Linear(8, 8).cuda()
x = torch.randn(4, 8, device="cuda")
with torch.cuda.amp.autocast():  # want: AMP001
    y = model(x)
