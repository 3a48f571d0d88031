# An evaluation loader handed, every few thousand steps, to a function of
# another module that iterates it (`if total_iters % args.test_freq == 0:
# features(net, device, lfwloader)`, a face-recognition trainer's LFW
# check): pinning it saves seconds in a run. The training loader is
# reported.
import argparse

import torch
import torch.nn as nn

from evaluate import features

parser = argparse.ArgumentParser()
parser.add_argument("--test_freq", type=int, default=3000)
args = parser.parse_args()
device = torch.device("cuda")


def train(net, trainset, lfwset, epochs):
    net = torch.compile(net.to(device))
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, fused=True)
    trainloader = torch.utils.data.DataLoader(trainset, batch_size=256, shuffle=True, num_workers=8, persistent_workers=True)  # want: LOAD002
    lfwloader = torch.utils.data.DataLoader(lfwset, batch_size=128, shuffle=False, num_workers=4)
    total_iters = 0
    for epoch in range(epochs):
        for img, label in trainloader:
            img, label = img.to(device), label.to(device)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = nn.functional.cross_entropy(net(img), label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_iters += 1
            if total_iters % args.test_freq == 0:
                net.eval()
                features(net, device, lfwloader)
                net.train()
