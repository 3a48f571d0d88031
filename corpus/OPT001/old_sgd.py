# gpuopt-env: torch=2.2
import torch

model = torch.nn.Linear(8, 2).cuda()
# fused SGD arrived in 2.3.
opt = torch.optim.SGD(model.parameters(), lr=0.1)
opt = torch.optim.Adam(model.parameters())  # want: OPT001
