# gpuopt-env: target-gpu=h100 torch=1.2
# The requirements pin torch 1.2, but the training step calls
# torch.cuda.amp, which arrived in 1.6 (yolov4-pytorch, SimCLR): the pin
# is not what runs this code, so it gates nothing. The fp16 recipe is
# reported on an H100.
import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast

model = nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.Conv2d(256, 256, 3, padding=1)).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
torch.backends.cudnn.benchmark = True


def train(loader, fp16=False):
    scaler = GradScaler(enabled=fp16)  # want: AMP003
    for images, target in loader:
        images, target = images.cuda(), target.cuda()
        with autocast(enabled=fp16):
            loss = nn.functional.mse_loss(model(images), target)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
