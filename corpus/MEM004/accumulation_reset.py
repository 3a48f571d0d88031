# A total of one optimizer step's micro-batch losses, reset before each
# step's accumulation loop (blind sample S19C's mini_edm): it keeps the
# graphs of one step's micro-batches until the next step, not of every
# step. The epoch total beside it, kept across the optimizer's steps, is
# still reported.
import torch

model = torch.nn.Linear(512, 512).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
epoch_loss = 0.0
for step in range(10000):
    optimizer.zero_grad()
    batch_loss = torch.tensor(0.0, device="cuda")
    for _ in range(4):
        x = torch.randn(64, 512, device="cuda")
        loss = model(x).pow(2).mean() / 4
        loss.backward()
        batch_loss += loss
        epoch_loss += loss  # want: MEM004
    optimizer.step()
    if step % 100 == 0:
        print(step, batch_loss.item())
