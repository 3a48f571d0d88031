# Darknet's convention (YOLOv4 ports): the loss is summed over the images
# of the accumulated batch and the learning rate is divided by that batch
# instead; the author left the division of the loss commented out. Dividing
# the loss again would cut the effective learning rate by k: not reported.
import torch


def train(model, loader, criterion, config):
    optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate / config.batch, fused=True)
    step = 0
    for images, targets in loader:
        loss = criterion(model(images.cuda()), targets.cuda())
        # loss = loss / config.subdivisions
        loss.backward()
        step += 1
        if step % config.subdivisions == 0:
            optimizer.step()
            model.zero_grad()


def train_commented(model, loader, criterion, k):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for i, (x, y) in enumerate(loader):
        loss = criterion(model(x.cuda()), y.cuda())
        # loss /= k  (summed on purpose: the schedule was tuned for it)
        loss.backward()
        if (i + 1) % k == 0:
            optimizer.step()
            optimizer.zero_grad()
