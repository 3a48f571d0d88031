import torch
import torch.nn as nn

model = nn.Linear(8, 8).cuda()
x = torch.randn(4, 8, device="cuda")

with torch.cuda.amp.autocast():  # want: AMP001
    y = model(x)

with torch.cuda.amp.autocast(enabled=True, dtype=torch.bfloat16):  # want: AMP001
    y = model(x)

# Positional arguments become keywords: autocast("cuda", True) would be dtype=True.
with torch.cuda.amp.autocast(True):  # want: AMP001
    y = model(x)


@torch.cuda.amp.autocast()  # want: AMP001
def forward(inp):
    return model(inp)


ctx = torch.cuda.amp.autocast(  # want: AMP001
    enabled=False,
)
