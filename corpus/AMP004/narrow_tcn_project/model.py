import torch.nn as nn

from nets.blocks import CausalStack


class SequenceClassifier(nn.Module):
    def __init__(self, c_in, n_classes, widths, kernel):
        super().__init__()
        self.stack = CausalStack(c_in, widths, kernel=kernel)
        self.head = nn.Linear(widths[-1], n_classes)

    def forward(self, x):
        return self.head(self.stack(x)[:, :, -1])
