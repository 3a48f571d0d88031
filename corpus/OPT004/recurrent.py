# gpuopt-env: target-gpu=h100
# An embedding, a cuDNN LSTM and one linear layer: the recurrent kernel
# takes the step's time and torch.compile leaves it as it is, so OPT004
# does not suggest compiling.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TextLSTM(nn.Module):
    def __init__(self, vocab, dim=300, hidden=256, classes=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, hidden, batch_first=True)
        self.out = nn.Linear(hidden, classes)

    def forward(self, tokens):
        _, (h, _) = self.lstm(self.embed(tokens))
        return self.out(h[-1])


def train(loader, vocab):
    model = TextLSTM(vocab).cuda()
    opt = torch.optim.Adam(model.parameters(), fused=True)
    for tokens, labels in loader:
        tokens, labels = tokens.cuda(non_blocking=True), labels.cuda(non_blocking=True)
        loss = F.cross_entropy(model(tokens), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
