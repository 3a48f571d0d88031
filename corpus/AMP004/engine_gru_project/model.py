import torch.nn as nn
import torch.nn.functional as F


class ReaderNet(nn.Module):
    def __init__(self, n_chars):
        super().__init__()
        self.conv = nn.Conv2d(3, 256, kernel_size=3, padding=1)
        self.proj = nn.Linear(256 * 20, 512)
        self.rnn = nn.GRU(512, 512, num_layers=2, bidirectional=True, batch_first=True)
        self.out = nn.Linear(1024, n_chars + 1)

    def forward(self, images, targets=None):
        x = F.relu(self.conv(images))
        x = x.permute(0, 3, 1, 2).flatten(2)
        x, _ = self.rnn(F.relu(self.proj(x)))
        logits = self.out(x)
        loss = None if targets is None else F.cross_entropy(logits.flatten(0, 1), targets.flatten())
        return logits, loss
