# gpuopt-env: target-gpu=h100
# A linear probe: a frozen backbone computes features under no_grad, and
# the optimizer steps one nn.Linear (two tensors), wrapped and moved as
# DINO's eval_linear.py does. Fusing a two-tensor update saves
# microseconds against the backbone's forward: no OPT001, and no OPT004
# on the one-layer classifier.
import torch
import torch.nn as nn


class LinearClassifier(nn.Module):
    def __init__(self, dim, num_labels=1000):
        super().__init__()
        self.linear = nn.Linear(dim, num_labels)
        self.linear.weight.data.normal_(mean=0.0, std=0.01)
        self.linear.bias.data.zero_()

    def forward(self, x):
        return self.linear(x.flatten(1))


def train_probe(backbone, loader, gpu):
    backbone.cuda().eval()
    linear_classifier = LinearClassifier(384)
    linear_classifier = linear_classifier.cuda()
    linear_classifier = nn.parallel.DistributedDataParallel(linear_classifier, device_ids=[gpu])
    optimizer = torch.optim.SGD(linear_classifier.parameters(), 0.1, momentum=0.9)
    for images, target in loader:
        with torch.no_grad():
            feats = backbone(images.cuda(non_blocking=True))
        loss = nn.functional.cross_entropy(linear_classifier(feats), target.cuda(non_blocking=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
