# gpuopt-env: target-gpu=h100
# Contrastive pretraining of a ResNet picked by name in a sibling module's
# function (a dict of torchvision ResNets) with a small projection head:
# cuDNN already runs the convolutions in TF32, the head's matmuls are a
# few hundred wide: no AMP005. (A ViT keeps it: ../torchvision_vit.py.)
import argparse

import torch
import torch.nn as nn

from backbones import get_backbone

parser = argparse.ArgumentParser()
parser.add_argument("--backbone", default="resnet50")
args = parser.parse_args()

encoder = get_backbone(args.backbone)
n_features = encoder.fc.in_features
encoder.fc = nn.Identity()
projector = nn.Sequential(nn.Linear(n_features, n_features), nn.ReLU(), nn.Linear(n_features, 64))
model = nn.Sequential(encoder, projector).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4, fused=True)


def train(loader):
    for x_i, x_j in loader:
        z_i = model(x_i.cuda(non_blocking=True))
        z_j = model(x_j.cuda(non_blocking=True))
        loss = -(nn.functional.normalize(z_i) * nn.functional.normalize(z_j)).sum(-1).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
