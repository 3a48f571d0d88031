# gpuopt-env: target-gpu=h100
# The module's batch_size sizes the LSTM's initial hidden state (the
# classifier is built with it); the batches come from an iterator built
# elsewhere. Raising the constant alone would break the state's shape, so
# MEM005 stays silent.
import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMClassifier(nn.Module):
    def __init__(self, batch_size, classes, hidden, vocab, dim):
        super().__init__()
        self.batch_size = batch_size
        self.hidden = hidden
        self.embed = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, hidden)
        self.out = nn.Linear(hidden, classes)

    def forward(self, tokens):
        h0 = torch.zeros(1, self.batch_size, self.hidden, device=tokens.device)
        c0 = torch.zeros(1, self.batch_size, self.hidden, device=tokens.device)
        _, (h, _) = self.lstm(self.embed(tokens).permute(1, 0, 2), (h0, c0))
        return self.out(h[-1])


def fit(model, batches):
    opt = torch.optim.Adam(model.parameters(), fused=True)
    for tokens, labels in batches:
        loss = F.cross_entropy(model(tokens.cuda()), labels.cuda())
        opt.zero_grad()
        loss.backward()
        opt.step()


batch_size = 32
model = LSTMClassifier(batch_size, 2, 256, 20000, 300).cuda()
