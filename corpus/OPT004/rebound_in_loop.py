# gpuopt-env: target-gpu=h100
# PointNet's training scripts rebind the model every epoch
# (`classifier = classifier.train()`) and after an in-place init
# (`classifier = classifier.apply(init)`): the model is built once, above.
import torch
import torch.nn as nn


def inplace_relu(m):
    if isinstance(m, nn.ReLU):
        m.inplace = True


def main(loader, epochs):
    classifier = nn.Sequential(nn.Linear(3, 4096), nn.ReLU(), nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 40))  # want: OPT004
    classifier = classifier.apply(inplace_relu)
    classifier = classifier.cuda()
    optimizer = torch.optim.Adam(classifier.parameters(), lr=1e-3, fused=True)
    for epoch in range(epochs):
        classifier = classifier.train()
        for points, target in loader:
            pred = classifier(points.cuda())
            loss = nn.functional.cross_entropy(pred, target.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
