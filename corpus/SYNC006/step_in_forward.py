# A tree solver whose nn.Module forward is the whole training step
# (blind sample S32I's MWP_Seq2Tree): it runs backward, steps the
# optimizers and returns loss.item(), the step's loss read. Not an .item()
# inside a forward pass: SYNC006 stays silent. The scorer below reads a
# margin in its forward and keeps the finding.
import torch
import torch.nn as nn


class Seq2Tree(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.GRU(512, 512, batch_first=True)
        self.decoder = nn.Linear(512, 64)
        self.optimizer = torch.optim.Adam(self.parameters(), lr=1e-3)

    def forward(self, x, y):
        self.optimizer.zero_grad()
        out, _ = self.encoder(x)
        loss = nn.functional.cross_entropy(self.decoder(out[:, -1]), y)
        loss.backward()
        self.optimizer.step()
        return loss.item()


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.margin = nn.Parameter(torch.tensor(9.0))
        self.proj = nn.Linear(512, 512)

    def forward(self, h, t):
        return self.margin.item() - (self.proj(h) - t).norm(dim=-1)  # want: SYNC006


model = Seq2Tree().cuda()
scorer = Scorer().cuda()
for step in range(10000):
    loss = model(torch.randn(64, 20, 512, device="cuda"), torch.randint(0, 64, (64,), device="cuda"))
    scores = scorer(torch.randn(64, 512, device="cuda"), torch.randn(64, 512, device="cuda"))
