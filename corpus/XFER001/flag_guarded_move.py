# A factory moved by the `if` right after it, when a flag says so (PReNet's
# recurrent state, built twice a forward). The factory is built where the
# flag sends it; the move stays and then returns the tensor as it is.
import torch
import torch.nn as nn
from torch.autograd import Variable


class Recurrent(nn.Module):
    def __init__(self, use_GPU=True):
        super().__init__()
        self.use_GPU = use_GPU
        self.conv = nn.Conv2d(35, 32, 3, padding=1)

    def forward(self, input):
        batch_size, row, col = input.size(0), input.size(2), input.size(3)
        h = Variable(torch.zeros(batch_size, 32, row, col))  # want: XFER001
        c = torch.zeros(batch_size, 32, row, col)  # want: XFER001
        if self.use_GPU:
            h = h.cuda()
            c = c.cuda()
        x = torch.cat((input, h, c), 1)
        return self.conv(x)


class Noisy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(256, 256)

    def forward(self, x):
        z = torch.randn(x.size(0), 256)  # want: XFER001
        if torch.cuda.is_available():
            z = z.to("cuda")
        # Read before the branch: built on the CPU on purpose.
        m = torch.zeros(x.size(0), 256)
        m[:, 0] = 1
        if x.is_cuda:
            m = m.cuda()
        # An else branch chooses another place: left alone.
        s = torch.ones(x.size(0), 256)
        if x.is_cuda:
            s = s.cuda()
        else:
            s = s.double()
        return self.fc(x + z) * m * s


def train(loader):
    model = nn.Sequential(Recurrent(), nn.Flatten(), nn.LazyLinear(256), Noisy()).cuda()
    opt = torch.optim.Adam(model.parameters())
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = (model(x) - y).abs().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
