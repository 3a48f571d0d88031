# The loss is rebound to a float, with its parts, by one parallel
# assignment before it is summed (blind sample S17B's dc-tts): no graph is
# kept, and `.detach()` on a float would raise AttributeError.
import torch
import torch.nn.functional as F


def train(model, loader, optimizer):
    running_loss = 0.0
    running_l1_loss = 0.0
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        out = model(x)
        l1_loss = F.l1_loss(out, y)
        loss = l1_loss + F.mse_loss(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss, l1_loss = loss.item(), l1_loss.item()
        running_loss += loss
        running_l1_loss += l1_loss
    return running_loss / len(loader), running_l1_loss / len(loader)


def train_kept(model, loader, optimizer):
    running_loss = 0.0
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        out = model(x)
        loss, l1_loss = F.mse_loss(out, y), F.l1_loss(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running_loss += loss  # want: MEM004
    return running_loss / len(loader)
