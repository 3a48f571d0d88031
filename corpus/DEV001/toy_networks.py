# Toy networks trained on the CPU: a one-in one-out regression and a
# word-prediction MLP of two hidden units over a vocabulary read from its
# three sentences. A GPU steps them no faster than the CPU (a tutorial's
# NNLM trained 0.6x as fast on an H200 as on its host's CPU), so DEV001
# stays silent; the same file's 512-wide network is reported.
import torch
import torch.nn as nn
import torch.optim as optim

sentences = ["i like dog", "i love coffee", "i hate milk"]
words = sorted(set(" ".join(sentences).split()))
n_class = len(words)


class NNLM(nn.Module):
    def __init__(self, n_step=2, m=2, n_hidden=2):
        super().__init__()
        self.C = nn.Embedding(n_class, m)
        self.H = nn.Linear(n_step * m, n_hidden, bias=False)
        self.d = nn.Parameter(torch.ones(n_hidden))
        self.U = nn.Linear(n_hidden, n_class, bias=False)
        self.n = n_step * m

    def forward(self, x):
        return self.U(torch.tanh(self.d + self.H(self.C(x).view(-1, self.n))))


def fit_toys(x_words, y_words, x, y):
    lm = NNLM()
    opt = optim.Adam(lm.parameters(), lr=1e-3)
    for epoch in range(5000):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(lm(x_words), y_words)
        loss.backward()
        opt.step()
    line = nn.Linear(1, 1)
    sgd = optim.SGD(line.parameters(), lr=0.01)
    for epoch in range(500):
        loss = ((line(x) - y) ** 2).mean()
        sgd.zero_grad()
        loss.backward()
        sgd.step()
