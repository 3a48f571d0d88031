"""OPT004 on recurrent models: one training step eager against
torch.compile (default mode), for the LSTM/GRU networks tutorials and
text classifiers build. Prints the median step time of both and the
speed-up; the rule's recurrent gate (patterns/opt004_compile.go) cites it.

    python corpus/gpu/opt004_recurrent.py
"""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from timing import train_step_ms

DEV = "cuda"


class TextLSTM(nn.Module):
    def __init__(self, vocab=20000, dim=300, hidden=256, classes=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, hidden, batch_first=True)
        self.out = nn.Linear(hidden, classes)

    def forward(self, tokens):
        _, (h, _) = self.lstm(self.embed(tokens))
        return self.out(h[-1])


class RowRNN(nn.Module):
    """yunjey's MNIST RNN: 28 rows of 28 pixels, 2-layer LSTM of 128."""

    def __init__(self, bidirectional=False):
        super().__init__()
        self.lstm = nn.LSTM(28, 128, 2, batch_first=True, bidirectional=bidirectional)
        self.fc = nn.Linear(128 * (2 if bidirectional else 1), 10)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1, :])


class WordLM(nn.Module):
    """A word-level LSTM language model: embedding 650, 2 layers, vocab 10k."""

    def __init__(self, vocab=10000, dim=650):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, dim, 2, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        out, _ = self.lstm(self.embed(tokens))
        return self.out(out)


def measure(name, build, x, y, loss_fn):
    torch.manual_seed(0)
    eager = train_step_ms(build().to(DEV), x, y, loss_fn, 40)
    torch.manual_seed(0)
    t0 = time.perf_counter()
    compiled = torch.compile(build().to(DEV))
    train_step_ms(compiled, x, y, loss_fn, 1)
    warm = time.perf_counter() - t0
    comp = train_step_ms(compiled, x, y, loss_fn, 40)
    print(f"{name}: eager {eager:.3f} ms, compiled {comp:.3f} ms, speed-up {eager / comp:.2f}x (compile {warm:.1f} s)", flush=True)


def main():
    print(torch.__version__, torch.cuda.get_device_name())
    ce = F.cross_entropy
    x = torch.randint(0, 20000, (32, 200), device=DEV)
    y = torch.randint(0, 2, (32,), device=DEV)
    measure("text lstm emb300 h256 b32 seq200", TextLSTM, x, y, ce)
    x = torch.randn(100, 28, 28, device=DEV)
    y = torch.randint(0, 10, (100,), device=DEV)
    measure("mnist row lstm 2x128 b100", RowRNN, x, y, ce)
    measure("mnist row bilstm 2x128 b100", lambda: RowRNN(True), x, y, ce)
    x = torch.randint(0, 10000, (20, 35), device=DEV)
    y = torch.randint(0, 10000, (20, 35), device=DEV)
    measure("word lm lstm 2x650 vocab 10k b20 bptt35", WordLM, x, y, lambda o, t: ce(o.flatten(0, 1), t.flatten()))


if __name__ == "__main__":
    main()
