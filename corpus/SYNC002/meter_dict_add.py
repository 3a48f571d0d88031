# Weakly supervised segmentation code keeps its losses in a meter that
# takes a dict (`avg_meter.add({"loss1": loss.item(), ...})`) on every step
# and prints it every few steps: each .item() waits for the GPU. One
# finding per meter call, naming the dict's other values. A hint without
# a fix: the meter must accept device tensors. A set's add and a bar's
# update(1) are not meters.
import torch
import torch.nn as nn
import torchvision


class AverageMeter:
    def __init__(self, *keys):
        self.sums = {k: 0.0 for k in keys}
        self.count = 0

    def add(self, values):
        for k, v in values.items():
            self.sums[k] += v
        self.count += 1

    def pop(self, key):
        v = self.sums[key] / max(self.count, 1)
        self.sums[key] = 0.0
        return v


def train(model, loader, optimizer, epochs, pbar):
    avg_meter = AverageMeter("loss1", "loss2")
    seen = set()
    for epoch in range(epochs):
        for step, (img, label) in enumerate(loader):
            img, label = img.cuda(non_blocking=True), label.cuda(non_blocking=True)
            x = model(img)
            loss1 = nn.functional.multilabel_soft_margin_loss(x, label)
            loss2 = x.abs().mean()
            loss = loss1 + 0.1 * loss2
            avg_meter.add({"loss1": loss1.item(), "loss2": loss2.item()})  # want: SYNC002
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            seen.add(step)
            pbar.update(1)
            if step % 100 == 0:
                print(f"step {step} loss1 {avg_meter.pop('loss1'):.4f} loss2 {avg_meter.pop('loss2'):.4f}")


if __name__ == "__main__":
    net = torchvision.models.resnet50(num_classes=20).cuda()
    train(net, [], torch.optim.SGD(net.parameters(), lr=0.01), 5, None)
