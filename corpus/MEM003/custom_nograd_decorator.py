# A project's own decorator runs the wrapped method under torch.no_grad():
# predict() records no graph (blind sample S14F's Faster R-CNN).
import torch as t
from torch import nn


def nograd(f):
    def new_f(*args, **kwargs):
        with t.no_grad():
            return f(*args, **kwargs)
    return new_f


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(256, 4)

    def forward(self, x):
        return self.head(x)

    @nograd
    def predict(self, batches):
        self.eval()
        boxes = []
        for x in batches:
            boxes.append(self(x.cuda()))
        return boxes
