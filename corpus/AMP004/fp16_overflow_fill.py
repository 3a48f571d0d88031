# gpuopt-env: target-gpu=h100
# A pointer network: an LSTM encoder (fp16 under autocast, so the advice
# is fp16 with a GradScaler) whose attention masks scores with -1e20.
# Under fp16 autocast the scores are half, and masked_fill(-1e20) raises
# (the value overflows fp16): the finding says so and offers no wrap.
import torch
import torch.nn as nn


class PointerNet(nn.Module):
    def __init__(self, vocab=50000, hidden=1024):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.encoder = nn.LSTM(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x, mask):
        h, _ = self.encoder(self.embed(x))
        scores = h @ h.transpose(1, 2)
        scores = scores.masked_fill(mask, -1e20)
        return self.out(torch.softmax(scores, -1) @ h)


model = PointerNet().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)


def train(loader, epochs):
    for epoch in range(epochs):
        for x, mask, y in loader:
            x, mask, y = x.cuda(non_blocking=True), mask.cuda(non_blocking=True), y.cuda(non_blocking=True)
            logits = model(x, mask)  # want: AMP004
            loss = nn.functional.cross_entropy(logits.flatten(0, 1), y.flatten())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
