# EfficientNet-B7 built from a project's copy of efficientnet_pytorch
# (blind sample S37E's FaceForensics_Detection): a convolutional network
# whose only matmul is its head, and whose convolutions cuDNN already runs
# in TF32. No TF32 advice.
import torch
import torch.nn as nn

from model_efficientnet.model import EfficientNet

net = EfficientNet.from_pretrained("efficientnet-b7", num_classes=1).cuda()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-4, fused=True)
criterion = nn.BCEWithLogitsLoss()


def train(loader, epochs):
    for epoch in range(epochs):
        for images, labels in loader:
            images, labels = images.cuda(non_blocking=True), labels.cuda(non_blocking=True)
            loss = criterion(net(images).squeeze(1), labels.float())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
