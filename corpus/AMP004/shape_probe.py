# A CNN that finds its flattened width by running a dummy input through
# its convolutions in __init__ (blind sample S38N's EEG classifier): the
# loop walks layers, once, not batches of data: no evaluation loop for
# the training step's finding to name or wrap.
import numpy as np
import torch
import torch.nn as nn


class ConvNet(nn.Module):
    def __init__(self, input_size=(1, 64, 512), channels=(512, 1024)):
        super().__init__()
        self.pool = nn.MaxPool2d(2)
        self.convs = nn.ModuleList()
        c = input_size[0]
        for out in channels:
            self.convs.append(nn.Conv2d(c, out, 3, padding=1))
            c = out
        self.flat = self.output_dim(input_size)
        self.fc = nn.Linear(self.flat, 4)

    def output_dim(self, input_size):
        with torch.no_grad():
            x = torch.ones(1, *input_size)
            for conv in self.convs:
                x = self.pool(conv(x))
        return int(np.prod(x.size()[1:]))

    def forward(self, x):
        for conv in self.convs:
            x = self.pool(torch.relu(conv(x)))
        return self.fc(x.flatten(1))


model = ConvNet().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)


def train(loader):
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())  # want: AMP004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


for epoch in range(10):
    train(train_loader)
