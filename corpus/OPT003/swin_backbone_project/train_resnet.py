# train.py with the ResNet-50 backbone: convolutions all the way, and the
# benchmark hint stays.
import torch
import torch.nn as nn

from model import ConvAgeNet

model = ConvAgeNet().cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)


def train(loader, epochs=30):
    for epoch in range(epochs):  # want: OPT003
        for images, ages in loader:
            images, ages = images.cuda(non_blocking=True), ages.cuda(non_blocking=True)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = nn.functional.l1_loss(model(images).squeeze(1), ages)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
