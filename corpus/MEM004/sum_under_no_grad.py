# A running total added under torch.no_grad() (blind sample S21B's Y-Net
# trainer): the sum made there is a new tensor with no graph, so nothing
# of the step is kept. A list that appends the loss under no_grad still
# holds each loss with its graph, and is still reported.
import torch

model = torch.nn.Linear(512, 512).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
train_loss = 0
kept = []
for step in range(10000):
    x = torch.randn(64, 512, device="cuda")
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        train_loss += loss
        kept.append(loss)  # want: MEM004
print(train_loss.item() / 10000, len(kept))
