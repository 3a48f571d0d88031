# Mixed-precision accumulation with gradient clipping: unscale_ undoes the
# AMP loss scale only, the accumulated gradient is still accum times too big.
import torch

model = torch.nn.Linear(8, 1).cuda()
optimizer = torch.optim.AdamW(model.parameters())
scaler = torch.amp.GradScaler("cuda")
accum = 8

for i, (x, y) in enumerate(zip(torch.randn(64, 8), torch.randn(64, 1))):
    with torch.autocast("cuda"):
        loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
    scaler.scale(loss).backward()  # want: MEM002
    if (i + 1) % accum == 0:
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
