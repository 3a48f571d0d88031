# gpuopt-env: target-gpu=h100
# A fine-tuning loop that logs its raw outputs to Weights & Biases every
# step: wandb turns tensors into NumPy arrays, which have no bf16, so the
# wrap is withheld (the finding stays) until the logged value is
# converted. The second loop logs the loss only and gets the wrap.
import torch
import torch.nn as nn
import wandb

model = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 10)).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
data = [(torch.randn(256, 4096, device="cuda"), torch.randint(0, 10, (256,), device="cuda")) for _ in range(4)]

for step, (x, y) in enumerate(data):
    outputs = model(x)  # want: AMP004
    loss = nn.functional.cross_entropy(outputs, y)
    wandb.log({"outputs": outputs}, step=step)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

for step, (x, y) in enumerate(data):
    outputs = model(x)  # want: AMP004
    loss = nn.functional.cross_entropy(outputs, y)
    wandb.log({"loss": loss.item()}, step=step)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
