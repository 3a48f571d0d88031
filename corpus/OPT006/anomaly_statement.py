import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

# left on after chasing a NaN
torch.autograd.set_detect_anomaly(True)  # want: OPT006

device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(64, 512), nn.ReLU(), nn.Linear(512, 10)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)
data = TensorDataset(torch.randn(10000, 64), torch.randint(0, 10, (10000,)))
loader = DataLoader(data, batch_size=256, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True)

for epoch in range(100):
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
torch.autograd.set_detect_anomaly(mode=True)  # want: OPT006
