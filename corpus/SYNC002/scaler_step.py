# An fp16 training loop whose AMP branch steps a GradScaler: scaler.step
# reads found_inf on the host before it steps, so that branch waits for
# the GPU every step anyway and its loss.item() costs no extra sync (blind
# sample S17G's TimeMixer). The fp32 branch has no such wait: reported.
import torch
from torch import nn

model = nn.Sequential(nn.Linear(4096, 4096), nn.GELU(), nn.Linear(4096, 4096)).cuda()
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)
scaler = torch.cuda.amp.GradScaler()


def train(loader, use_amp):
    for epoch in range(10):
        train_loss = []
        for batch_x, batch_y in loader:
            batch_x, batch_y = batch_x.cuda(), batch_y.cuda()
            optimizer.zero_grad()
            if use_amp:
                with torch.autocast("cuda", dtype=torch.float16):
                    loss = criterion(model(batch_x), batch_y)
                    train_loss.append(loss.item())
            else:
                loss = criterion(model(batch_x), batch_y)
                train_loss.append(loss.item())  # want: SYNC002
            if use_amp:
                scaler.scale(loss).backward()
                scaler.step(optimizer)
                scaler.update()
            else:
                loss.backward()
                optimizer.step()
        print(epoch, sum(train_loss) / len(train_loss))
