"""Silent: a loop driven by a metric logger that times each iteration."""
import torch


class StepLogger:
    def log_every(self, iterable, freq):
        for i, item in enumerate(iterable):
            yield item


def train_logged(model, loader, optimizer):
    logger = StepLogger()
    for x, y in logger.log_every(loader, 10):
        loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        # The logger times every iteration: the barrier makes those times right.
        torch.cuda.synchronize()
