# The script wraps its network in nn.DataParallel and unwraps it again
# (`net = net.module`) before handing it to train() and test(); another
# script's train() unwraps its parameter at the top. The wrapper is never
# called: nothing is replicated, and DDP has nothing to replace. No OPT005
# (blind samples S25I, S31G). A wrap unwrapped only for the checkpoint
# after training keeps its finding.
import torch
import torch.nn as nn


def train(model, optimizer, loader):
    model = model.module
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(loader):
    net = nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 10)).cuda()
    net = torch.nn.DataParallel(net)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    for epoch in range(10):
        train(net, optimizer, loader)


def other_main(loader):
    capsule = nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 10))
    capsule = torch.nn.DataParallel(capsule).cuda()
    capsule = capsule.module
    optimizer = torch.optim.SGD(capsule.parameters(), lr=0.1)
    for epoch in range(10):
        for x, y in loader:
            loss = nn.functional.cross_entropy(capsule(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def saving_main(loader):
    body = nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 10)).cuda()
    body = torch.nn.DataParallel(body)  # want: OPT005
    optimizer = torch.optim.SGD(body.parameters(), lr=0.1)
    for epoch in range(10):
        for x, y in loader:
            loss = nn.functional.cross_entropy(body(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    body = body.module
    torch.save(body.state_dict(), "body.pt")
