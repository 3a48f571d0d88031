import torch
from torch import nn

model = nn.Linear(16, 4).cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
dataloader = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(4)]

# Seed 002, "混合精度训练": the deprecated torch.cuda.amp spellings.
scaler = torch.cuda.amp.GradScaler()
for data, target in dataloader:
    data, target = data.to('cuda'), target.to('cuda')
    optimizer.zero_grad()
    with torch.cuda.amp.autocast():  # want: AMP001
        output = model(data)
        loss = criterion(output, target)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
