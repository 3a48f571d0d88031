# A Swin backbone with a small convolutional head over its 7x7 maps: the
# step's time is the attention's, and cudnn.benchmark has little to pick
# (blind sample S28C). The ResNet twin (train_resnet.py) keeps the hint.
import torch
import torch.nn as nn

from model import AgeGenderNet

model = AgeGenderNet().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)


def train(loader, epochs=30):
    for epoch in range(epochs):
        for images, ages in loader:
            images, ages = images.cuda(non_blocking=True), ages.cuda(non_blocking=True)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = nn.functional.l1_loss(model(images).squeeze(1), ages)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
