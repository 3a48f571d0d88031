# The pre-0.4 spelling of torch.zeros and torch.full: a typed constructor
# of the size, filled in place, then moved. Built in a training step
# whose body also runs small loops of its own (a label remap), which is
# still the step: every iteration builds the buffers on the CPU and
# copies them (blind sample S26D's HR-VITON, 13x1024x768 one-hot maps).
# A constructor given data, and one built on the device, stay silent.
import torch
import torch.nn as nn

LABELS = {0: [0], 1: [1, 2], 2: [3, 4, 5]}


def train(loader, steps=10000):
    model = nn.Conv2d(3, 3, 3, padding=1).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)
    for step in range(steps):
        parse, target = next(loader)
        parse, target = parse.cuda(), target.cuda()
        onehot = torch.FloatTensor(parse.size(0), 6, 256, 192).zero_().cuda()  # want: XFER001
        onehot.scatter_(1, parse, 1.0)
        merged = torch.FloatTensor(parse.size(0), 3, 256, 192).fill_(0).cuda()  # want: XFER001
        for i in range(len(LABELS)):
            for label in LABELS[i]:
                merged[:, i] += onehot[:, label]
        weights = torch.FloatTensor([0.2, 0.3, 0.5]).cuda()
        flags = torch.cuda.FloatTensor(parse.size(0)).zero_()
        loss = ((model(merged) - target).abs().mean(dim=(2, 3)) * weights).mean() + flags.sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    train(iter([]))
