import torch
import torch.nn as nn


class Normalize(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.mean = torch.tensor([0.485, 0.456, 0.406])  # want: CACHE002
        self.std = torch.as_tensor(  # want: CACHE002
            [0.229, 0.224, 0.225],
            dtype=torch.float32,
        )
        self.steps = torch.arange(10)  # want: CACHE002
        self.scale = scale
        self.weight = nn.Parameter(torch.ones(3))
        self.learned = torch.zeros(3, requires_grad=True)

    def forward(self, x):
        return (x - self.mean.to(x.device)) / self.std.to(x.device) * self.steps.sum()


class Block(Normalize):
    def __init__(this):
        super(Block, this).__init__(1.0)
        this.offsets = torch.zeros(4)  # want: CACHE002

    def forward(this, x):
        return x + this.offsets.to(x.device)


model = Block().cuda()


class Memory(nn.Module):
    # Read only while building the module (handed to a helper's
    # constructor): it never meets a device, nothing to report.
    def __init__(self, n):
        super().__init__()
        self.unigrams = torch.ones(n)
        self.sampler = torch.distributions.Categorical(probs=self.unigrams)
