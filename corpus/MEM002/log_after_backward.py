# The step logs the loss after its backward (`loss_log.append(loss.item())`):
# the fix divides inside the backward call, so the logged value stays the
# undivided loss it was.
import torch
from torch import nn


def trainer(model, loader, optimizer, accum):
    loss_log = []
    for i, (x, y) in enumerate(loader):
        loss = nn.functional.mse_loss(model(x.cuda()), y.cuda())
        loss.backward()  # want: MEM002
        loss_log.append(loss.item())
        if i % accum == 0:
            optimizer.step()
            optimizer.zero_grad()
    return loss_log


if __name__ == "__main__":
    net = nn.Linear(8, 1).cuda()
    trainer(net, [], torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9), 4)
