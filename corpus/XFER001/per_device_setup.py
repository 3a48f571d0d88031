# Touching each GPU at start-up so the process shows in nvidia-smi (blind
# sample S38C's VAC_CSLR): a loop over the device ids runs once a device,
# not once a step. The same factory in a training step is reported.
import torch


class Devices:
    def __init__(self, gpus):
        self.gpus = list(gpus)
        for g in self.gpus:
            torch.zeros(1).cuda(g)
        for i in range(torch.cuda.device_count()):
            torch.zeros(1).cuda(i)


def train(model, loader, optimizer):
    for x, y in loader:
        noise = torch.randn(64, 128).cuda()  # want: XFER001
        loss = torch.nn.functional.mse_loss(model(x.cuda() + noise), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
