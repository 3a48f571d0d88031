# gpuopt-env: target-gpu=h100
# Two training stages in one script; the first already runs its forward
# under autocast (by hand, or after this rule's fix was applied to its
# finding alone), the second does not: the second is still reported
# (blind sample S26D's cp-vton-plus, whose TOM stage lost its finding once
# the GMM stage was wrapped).
import torch
import torch.nn as nn


def wide_net():
    return nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.Conv2d(256, 512, 3, padding=1), nn.ReLU(), nn.Conv2d(512, 3, 1))


def train_warp(loader):
    model = wide_net().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)
    for image, target in loader:
        image, target = image.cuda(), target.cuda()
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = nn.functional.l1_loss(model(image), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_tryon(loader):
    model = wide_net().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)
    for image, target in loader:
        image, target = image.cuda(), target.cuda()
        out = model(image)  # want: AMP004
        loss = nn.functional.l1_loss(out, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    train_warp([])
    train_tryon([])
