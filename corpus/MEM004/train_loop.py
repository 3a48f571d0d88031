import torch
from torch import nn
from torch.utils.data import DataLoader

model = nn.Linear(16, 4).cuda()
optimizer = torch.optim.AdamW(model.parameters())
scaler = torch.amp.GradScaler("cuda")
loader = DataLoader(list(range(10)), batch_size=2)
loss_fn = nn.MSELoss()

losses = []
history = {"train": []}
total = 0.0
for epoch in range(3):
    epoch_losses = []
    for x, y in loader:
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss)  # want: MEM004
        history["train"].append(loss)  # want: MEM004
        epoch_losses.append(loss)  # want: MEM004
        total += loss  # want: MEM004
        losses.append(loss.detach())
        losses.append(loss.item())
    print(sum(epoch_losses))


class Trainer:
    def __init__(self):
        self.losses = []

    def fit(self):
        for x, y in loader:
            with torch.autocast("cuda"):
                out = model(x)
                scaled = loss_fn(out, y)
            scaler.scale(scaled).backward()
            scaler.step(optimizer)
            scaler.update()
            self.losses.append(scaled)  # want: MEM004
