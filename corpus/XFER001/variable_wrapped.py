# Pre-0.4 research code wraps its factories in Variable(...), which current
# PyTorch returns unchanged: the zeros are still built on the CPU and
# copied every step. The Variable stays; the factory gets device=.
import torch
import torch.nn as nn
from torch.autograd import Variable


class Decoder(nn.Module):
    def __init__(self, hidden=512):
        super().__init__()
        self.hidden = hidden
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)

    def forward(self, x):
        h0 = Variable(torch.zeros(1, x.size(0), self.hidden)).cuda()  # want: XFER001
        mask = Variable(torch.ones(x.size(0), x.size(1)).float()).cuda()  # want: XFER001
        # requires_grad=: moving the leaf makes a non-leaf; device= would not.
        bias = Variable(torch.zeros(self.hidden), requires_grad=True).cuda()
        out, _ = self.rnn(x, h0)
        return out * mask.unsqueeze(-1) + bias


def train(loader):
    model = Decoder().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, target in loader:
        # Host data wrapped: the copy is the point.
        x = Variable(x).cuda()
        loss = (model(x) - Variable(target).cuda()).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
