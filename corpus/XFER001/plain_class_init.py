# A speaker-clustering model wraps its network in a plain class (not an
# nn.Module) whose __init__ builds its initial state with factories moved
# to the device: a demo script elsewhere builds the class once, so this is
# set-up, silent. The same factory in the per-step method is reported.
import torch
import torch.nn as nn


class Clusterer:
    def __init__(self, dim, hidden):
        self.device = torch.device("cuda")
        self.rnn = nn.GRU(dim, hidden).to(self.device)
        self.init_hidden = nn.Parameter(torch.zeros(1, 1, hidden).to(self.device))
        self.sigma2 = nn.Parameter(0.1 * torch.ones(dim).to(self.device))

    def step(self, batch):
        mask = torch.ones(batch.shape[0], batch.shape[1]).to(self.device)  # want: XFER001
        out, _ = self.rnn(batch * mask.unsqueeze(-1), self.init_hidden.expand(-1, batch.shape[1], -1).contiguous())
        return out.pow(2).mean() / self.sigma2.mean()

    def fit(self, batches, epochs=10):
        opt = torch.optim.Adam(list(self.rnn.parameters()) + [self.init_hidden, self.sigma2])
        for epoch in range(epochs):
            for batch in batches:
                opt.zero_grad()
                self.step(batch.to(self.device)).backward()
                opt.step()
