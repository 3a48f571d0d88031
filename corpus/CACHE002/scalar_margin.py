# An ArcFace head whose margins are 0-d tensors built from Python numbers
# (blind sample S22L's product matching). A CUDA kernel takes a 0-d CPU
# tensor operand as a scalar, with no copy, so `cos_th > self.th` and
# `cos_th - self.mm` cost nothing: silent. A 0-d tensor the class moves
# itself on every forward (`self.scale.to(x.device)`) is a copy per step
# and keeps the finding, as does a vector.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ArcMarginProduct(nn.Module):
    def __init__(self, in_features, out_features, s=30.0, m=0.5):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)
        self.s = s
        self.th = torch.tensor(math.cos(math.pi - m))
        self.mm = torch.tensor(math.sin(math.pi - m) * m)
        self.scale = torch.tensor(2.0)  # want: CACHE002
        self.mean = torch.tensor([0.485, 0.456, 0.406])  # want: CACHE002

    def forward(self, inputs, labels):
        cos_th = F.linear(F.normalize(inputs), F.normalize(self.weight))
        cos_th = torch.where(cos_th > self.th, cos_th, cos_th - self.mm)
        return cos_th * self.scale.to(inputs.device) * self.s + self.mean.sum()


head = ArcMarginProduct(512, 1000).cuda()
