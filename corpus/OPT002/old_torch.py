# gpuopt-env: torch=1.13
import torch

model = torch.nn.Linear(8, 2).cuda()
optimizer = torch.optim.Adam(model.parameters())
for step in range(10):
    optimizer.zero_grad()  # want: OPT002
    model.zero_grad()  # want: OPT002
    optimizer.zero_grad(set_to_none=False)
    loss = model(torch.randn(2, 8, device="cuda")).sum()
    loss.backward()
    optimizer.step()
