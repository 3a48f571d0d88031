# A test file (by its name): cudnn.benchmark at its top would make every later
# test in the session pick algorithms by timing.
import torch

model = torch.nn.Conv2d(3, 8, 3).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    loss = model(torch.randn(2, 3, 8, 8, device="cuda")).sum()
    loss.backward()
    opt.step()
