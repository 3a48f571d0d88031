import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ArcMarginProduct(nn.Module):
    def __init__(self, in_features, out_features, s=30.0, m=0.5):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)
        self.s, self.cos_m, self.sin_m = s, math.cos(m), math.sin(m)
        self.th, self.mm = math.cos(math.pi - m), math.sin(math.pi - m) * m

    def forward(self, x, labels):
        cos_th = F.linear(F.normalize(x), F.normalize(self.weight))
        sin_th = torch.sqrt(1.0 - torch.pow(cos_th, 2))
        cos_th_m = cos_th * self.cos_m - sin_th * self.sin_m
        cond = cos_th - self.th <= 0
        cos_th_m[cond] = (cos_th - self.mm)[cond]
        onehot = F.one_hot(labels, cos_th.size(1)).to(cos_th.dtype)
        return (onehot * cos_th_m + (1.0 - onehot) * cos_th) * self.s
