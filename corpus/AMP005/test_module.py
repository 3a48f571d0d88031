# A test module: a global TF32 switch at its top would change the numerics of
# every test that runs after it in the same session.
# gpuopt-env: target-gpu=h100
import pytest
import torch


def test_trains():
    model = torch.nn.Linear(4, 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        loss = model(torch.randn(2, 4, device="cuda")).sum()
        loss.backward()
        opt.step()
