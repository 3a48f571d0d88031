"""A loss of the project's own, with a self-test under its __main__ guard:
a tiny CPU training run that checks the gradients, not the project's
training. Silent."""
import torch
import torch.nn as nn


class SplitSoftmaxLoss(nn.Module):
    def __init__(self, hidden, vocab):
        super().__init__()
        self.proj = nn.Linear(hidden, vocab)

    def forward(self, h, y):
        return nn.functional.cross_entropy(self.proj(h), y)


if __name__ == "__main__":
    embed = nn.Embedding(8, 10)
    crit = SplitSoftmaxLoss(10, 8)
    opt = torch.optim.SGD(list(embed.parameters()) + list(crit.parameters()), lr=1)
    for _ in range(10):
        x = torch.randint(0, 8, (100,))
        loss = crit(embed(x), x)
        opt.zero_grad()
        loss.backward()
        opt.step()
