# A loss helper that builds a one-hot target on the CPU from the labels,
# writes into it by slices, then copies it to the labels' device, every
# step (blind sample S29D's DMFNet): built on x.device from the start,
# the slices write on the device (setitem copies across devices either
# way) and the copy goes. The device is the parameter's, bound before
# the body runs.
import torch
import torch.nn.functional as F


def expand_target(x, n_class):
    shape = list(x.size())
    shape.insert(1, n_class)
    xx = torch.zeros(tuple(shape))  # want: XFER001
    xx[:, 1, :, :, :] = x == 1
    xx[:, 2, :, :, :] = x == 2
    xx[:, 3, :, :, :] = x == 3
    return xx.to(x.device)


def dice_loss(output, target):
    target = expand_target(target, n_class=output.size()[1])
    inter = (output * target).sum()
    return 1 - 2 * inter / (output.sum() + target.sum() + 1e-5)


def train(model, loader, optimizer):
    for x, y in loader:
        x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
        loss = dice_loss(F.softmax(model(x), dim=1), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
