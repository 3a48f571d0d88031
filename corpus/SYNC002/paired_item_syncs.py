# Two per-step .item() calls that SYNC002 defers both (a running loss read
# every few steps, and a loss curve kept for a plot after training) no
# longer excuse each other: the step waits twice, and each is reported.
# A `.item()` whose value the step needs (a print every step) still
# silences the rest (see the loop below).
import torch
import torch.nn as nn
import torchvision


def train(model, loader, optim, epochs, n_freq_print=50):
    loss_vals = []
    for epoch in range(epochs):
        running_loss, n_samples = 0.0, 0
        for batch_idx, (images, poses) in enumerate(loader):
            images, poses = images.cuda(non_blocking=True), poses.cuda(non_blocking=True)
            optim.zero_grad()
            criterion = nn.functional.mse_loss(model(images), poses)
            running_loss += criterion.item()  # want: SYNC002
            loss_vals.append(criterion.item())  # want: SYNC002
            n_samples += images.size(0)
            criterion.backward()
            optim.step()
            if batch_idx % n_freq_print == 0:
                print(f"[{batch_idx}/{epoch}] running loss {running_loss / n_samples:.3f}")
    return loss_vals


def train_printing(model, loader, optim):
    curve = []
    for images, poses in loader:
        images, poses = images.cuda(non_blocking=True), poses.cuda(non_blocking=True)
        optim.zero_grad()
        loss = nn.functional.mse_loss(model(images), poses)
        curve.append(loss.item())
        print(f"loss {loss.item():.4f}")
        loss.backward()
        optim.step()
    return curve


if __name__ == "__main__":
    net = torchvision.models.resnet50(num_classes=7).cuda()
    opt = torch.optim.Adam(net.parameters())
    train(net, [], opt, 10)
    train_printing(net, [], opt)
