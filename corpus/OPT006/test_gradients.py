import torch

torch.autograd.set_detect_anomaly(True)  # a test module: finds the op that made a NaN


def test_backward_finite():
    w = torch.randn(4, 4, requires_grad=True)
    (w @ w).sum().backward()
    assert torch.isfinite(w.grad).all()
