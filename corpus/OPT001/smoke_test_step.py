# A model file's self-test (blind sample S38B's partial-conv inpainting
# model): one forward, one backward and one optimizer step under
# `if __name__ == "__main__":`. A fused step saves microseconds a step,
# nothing on one; the training script's optimizer, stepped every batch,
# is reported.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024))

    def forward(self, x):
        return self.body(x)


def train(loader, epochs):
    model = Model().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)  # want: OPT001
    for epoch in range(epochs):
        for x in loader:
            loss = F.l1_loss(model(x.cuda()), x.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    data = torch.randn(10, 1024).cuda()
    model = Model().cuda()
    out = model(data)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
    loss = F.l1_loss(out, data)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    assert torch.isfinite(model.body[0].weight.grad).all()
