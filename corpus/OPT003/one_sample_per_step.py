# Whole images of their own size, one per step (a density-map counter):
# each new input shape is timed again by cudnn.benchmark and re-traced by
# torch.compile, so neither is advised. The same network trained on
# stacked batches of 16 gets the benchmark hint (one_sample_batched.py).
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(64, 128, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(128, 1, 1),
        )

    def forward(self, x):
        return self.features(x)


def train(dataset, epochs=100):
    model = Counter().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-7, momentum=0.95)
    loader = DataLoader(dataset, batch_size=1, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True)
    criterion = nn.MSELoss(reduction="sum")
    for epoch in range(epochs):
        for img, target in loader:
            img = img.cuda(non_blocking=True)
            target = target.cuda(non_blocking=True)
            loss = criterion(model(img), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
