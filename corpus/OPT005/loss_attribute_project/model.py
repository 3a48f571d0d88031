# Both modules wrapped in nn.DataParallel on self: the encoder's wrap is
# reported; the loss has no parameters, so DistributedDataParallel would
# refuse it and the wrap trains nothing: no finding on it.
import torch
import torch.nn as nn

from triplet import TripletLoss


class Model:
    def __init__(self, margin=0.2):
        self.encoder = nn.Sequential(nn.Conv2d(1, 128, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(128, 256))
        self.encoder = nn.DataParallel(self.encoder)  # want: OPT005
        self.triplet_loss = TripletLoss(margin)
        self.triplet_loss = nn.DataParallel(self.triplet_loss)
        self.encoder.cuda()
        self.optimizer = torch.optim.Adam(self.encoder.parameters(), lr=1e-4, fused=True)

    def fit(self, loader):
        for silhouettes, labels in loader:
            loss = self.triplet_loss(self.encoder(silhouettes.cuda()), labels.cuda())
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
