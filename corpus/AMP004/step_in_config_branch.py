# gpuopt-env: target-gpu=h100
# A training step whose forward, loss and backward all sit in one branch
# of a config switch (blind sample S26C's CIL agent, whose `if
# cfg.BRANCHED:` step was never reported while its evaluation loop was).
# A step with a pass in each branch of another switch gets one finding.
import torch
import torch.nn as nn


def wide():
    return nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.Conv2d(256, 512, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 3))


def train(loader, branched=True):
    model = wide().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)
    for img, target in loader:
        img, target = img.cuda(), target.cuda()
        if branched:
            out = model(img)  # want: AMP004
            loss = nn.functional.mse_loss(out, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        else:
            loss = nn.functional.mse_loss(model(img)[:, :1], target[:, :1])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    train([])
