# Factories that run once per run or per evaluation, not per step (blind
# sample S17A): a metric's confusion matrix built in the __init__ of a
# plain class that an evaluator builds in its own __init__, and a queue
# the epoch loop builds the first time only (`if ... queue is None`).
# The factory inside the batch loop is reported.
import torch


class Metrics(object):
    def __init__(self, n_classes):
        self.confusion = torch.zeros((n_classes, n_classes)).cuda().detach()

    def update(self, preds, label):
        self.confusion += torch.bincount(label * self.confusion.size(0) + preds, minlength=self.confusion.numel()).view_as(self.confusion)


class Evaluator(object):
    def __init__(self, n_classes):
        self.metrics = Metrics(n_classes)

    @torch.no_grad()
    def __call__(self, net, loader):
        for images, labels in loader:
            preds = net(images.cuda()).argmax(dim=1)
            self.metrics.update(preds.flatten(), labels.cuda().flatten())
        return self.metrics.confusion


def evaluate(net, loader):
    evaluator = Evaluator(19)
    return evaluator(net, loader)


def train(loader, model, optimizer, queue):
    for images, _ in loader:
        noise = torch.randn(images.shape).cuda()  # want: XFER001
        loss = model(images.cuda() + noise).logsumexp(dim=1).mean() + 0 * queue.sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return queue


def main(model, loader, val_loader, epochs=100, queue_starts=15):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    queue = None
    for epoch in range(epochs):
        if epoch >= queue_starts and queue is None:
            queue = torch.zeros(2, 3840, 128).cuda()
        queue = train(loader, model, optimizer, queue)
    print(evaluate(model, val_loader))
