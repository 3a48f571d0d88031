# gpuopt-env: target-gpu=h100
# The evaluation loaders are handed to a feature-extraction helper of
# another module; the training batch is the loader the backward loop
# iterates, the only one reported (blind sample S16H's Face_Pytorch).
import argparse

import torch
import torch.nn as nn

from eval_lfw import get_features


def train(args):
    device = torch.device("cuda")
    trainloader = torch.utils.data.DataLoader(trainset, batch_size=64, shuffle=True, num_workers=8)  # want: MEM005
    lfwloader = torch.utils.data.DataLoader(lfwdataset, batch_size=128, shuffle=False, num_workers=4)
    agedbloader = torch.utils.data.DataLoader(agedbdataset, batch_size=128, shuffle=False, num_workers=4)
    net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 112 * 112, 512)).to(device)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    total_iters = 0
    for epoch in range(30):
        for data in trainloader:
            img, label = data[0].to(device), data[1].to(device)
            loss = nn.functional.cross_entropy(net(img), label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_iters += 1
            if total_iters % args.test_freq == 0:
                net.eval()
                get_features("lfw.mat", net, device, lfwdataset, lfwloader)
                get_features("agedb.mat", net, device, agedbdataset, agedbloader)
                net.train()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--test_freq", type=int, default=3000)
    train(parser.parse_args())
