# gpuopt-env: target-gpu=h100
# The network comes from load_model, in a module of convolutions only:
# cuDNN already runs them in TF32, so the matmul setting has nothing to
# speed up. Silent.
import torch

from models import load_model

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = load_model([{"filters": 32, "size": 3}, {"filters": 64, "size": 3}])
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, fused=True)
for epoch in range(100):
    for _ in range(10):
        x = torch.randn(16, 3, 416, 416, device=device)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
