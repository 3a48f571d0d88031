# gpuopt-env: torch=1.5
# zero_grad(set_to_none=...) appeared in PyTorch 1.7: nothing to rewrite.
import torch

model = torch.nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    optimizer.zero_grad()
    model(torch.randn(2, 4)).sum().backward()
    optimizer.step()
