import torch

# No GPU known: a hint (no fix applied) that says what it assumed.
model = torch.nn.Linear(8, 2).cuda()
scaler = torch.amp.GradScaler("cuda")  # want: AMP003
with torch.autocast("cuda"):
    loss = model(torch.randn(4, 8, device="cuda")).sum()
scaler.scale(loss).backward()
