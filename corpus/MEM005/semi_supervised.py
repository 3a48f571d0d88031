# gpuopt-env: target-gpu=h100
# Semi-supervised training (MixMatch-style): the labelled loader's batch is
# tied to the size of the labelled set (250 images, drop_last) and to the
# unlabelled loader's; raising it to the table's 512 would leave the
# labelled loader empty. No MEM005.
import argparse

import torch
from torch.utils.data import DataLoader

parser = argparse.ArgumentParser()
parser.add_argument("--batch-size", type=int, default=64)
parser.add_argument("--n-labeled", type=int, default=250)
args = parser.parse_args()


def train(labeled_set, unlabeled_set, model, optimizer):
    labeled_loader = DataLoader(labeled_set, batch_size=args.batch_size, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True, drop_last=True)
    unlabeled_loader = DataLoader(unlabeled_set, batch_size=args.batch_size, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True, drop_last=True)
    model = model.cuda()
    for epoch in range(1024):
        for (x, y), (u1, u2) in zip(labeled_loader, unlabeled_loader):
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            loss = torch.nn.functional.cross_entropy(model(x), y) + (model(u1.cuda()) - model(u2.cuda())).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
