# A loss object with its own backward, rebound to the float it reports
# before the totals (blind sample S19Q's char-rnnlm, where
# `Perplexity.get_loss()` returns math.exp of the loss): the totals keep a
# float, not the tensor that was backpropagated, and `.detach()` on it
# would raise AttributeError. A loss kept as it was backpropagated is
# still reported.
import math

import torch


class Perplexity:
    def __init__(self):
        self.acc_loss = 0
        self.norm = 0

    def eval_batch(self, outputs, target):
        self.acc_loss = self.acc_loss + torch.nn.functional.cross_entropy(outputs, target, reduction="sum")
        self.norm += target.numel()

    def backward(self):
        self.acc_loss.backward()

    def get_loss(self):
        return math.exp(self.acc_loss.item() / self.norm)


model = torch.nn.LSTM(512, 512, num_layers=4, batch_first=True).cuda()
head = torch.nn.Linear(512, 100).cuda()
optimizer = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), fused=True)
epoch_loss_total, kept_total = 0.0, 0.0
for step in range(1000):
    x = torch.randn(32, 50, 512, device="cuda")
    y = torch.randint(0, 100, (32,), device="cuda")
    loss = Perplexity()
    loss.eval_batch(head(model(x)[0][:, -1]), y)
    model.zero_grad()
    loss.backward()
    optimizer.step()
    loss = loss.get_loss()
    epoch_loss_total += loss

    out = head(model(x)[0][:, -1])
    ce = torch.nn.functional.cross_entropy(out, y)
    optimizer.zero_grad()
    ce.backward()
    optimizer.step()
    kept_total += ce  # want: MEM004
