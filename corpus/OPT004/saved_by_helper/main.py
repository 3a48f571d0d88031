# gpuopt-env: target-gpu=h100
# The model's state_dict is saved by util.save_model, and a later stage
# loads it by key: compiling would prefix every key with _orig_mod., so the
# finding offers no compile line.
import torch

from util import save_model

model = torch.nn.Sequential(torch.nn.Linear(4096, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 10)).cuda()  # want: OPT004
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for epoch in range(10):
    for step in range(10000):
        x = torch.randn(64, 512, device="cuda")
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    save_model(model, optimizer, epoch, "ckpt.pth")
