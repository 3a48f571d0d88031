import torch
from torch.autograd import Function


class NearestCode(Function):
    @staticmethod
    def forward(ctx, inputs, codebook):
        distances = torch.cdist(inputs, codebook)
        return distances.argmin(dim=1)

    @staticmethod
    def backward(ctx, grad):
        return None, None
