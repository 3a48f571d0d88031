# The project's training script: its loader is reported.
import torch
from torch.utils.data import DataLoader

from encoder import Encoder
from frames import FramesDataset

model = Encoder().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
loader = DataLoader(FramesDataset([f"{i}.npy" for i in range(4096)]), batch_size=32, shuffle=True)  # want: LOAD001
for epoch in range(10):
    for frames in loader:
        loss = model(frames.cuda()).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
