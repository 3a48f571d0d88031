# gpuopt-env: target-gpu=h100
# A text classifier of 128-wide embeddings: its token table is large
# (50,000 words) and its position table's size is computed, but neither
# makes the network wide. Lookups are cheap, and the output layer has two
# classes, not a vocabulary: the network is narrow, no finding (NCF's
# user and item tables beside layers of 256 or less ran 0.67-0.77× with
# autocast on an H100, .notes/amp004-rnn-h100.txt). The language model
# below has an output layer as wide as its vocabulary from 512-wide
# embeddings, a large matmul per token: its wrap is offered as a fix.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Classifier(nn.Module):
    def __init__(self, vocab=50000, emb=128, seq_length=512, relative=False):
        super().__init__()
        self.tokens = nn.Embedding(vocab, emb)
        self.positions = nn.Embedding(seq_length * 2 - 1 if relative else seq_length, emb)
        self.out = nn.Linear(emb, 2)

    def forward(self, x):
        pos = torch.arange(x.size(1), device=x.device)
        return self.out((self.tokens(x) + self.positions(pos)).mean(dim=1))


class LanguageModel(nn.Module):
    def __init__(self, vocab, emb=512):
        super().__init__()
        self.tokens = nn.Embedding(vocab, emb)
        self.out = nn.Linear(emb, vocab)

    def forward(self, x):
        return self.out(self.tokens(x))


def train_classifier(loader):
    model = Classifier().to(device)
    opt = torch.optim.Adam(model.parameters())
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def train_language_model(loader, vocab_size):
    model = LanguageModel(vocab_size).to(device)
    opt = torch.optim.Adam(model.parameters())
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        logits = model(x)  # want: AMP004
        loss = F.cross_entropy(logits.flatten(0, 1), y.flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()


class CharLM(nn.Module):
    # A character model of 64-wide embeddings: its vocabulary head, however
    # wide the vocabulary, is a small matmul per token. A hint.
    def __init__(self, vocab, emb=64):
        super().__init__()
        self.tokens = nn.Embedding(vocab, emb)
        self.out = nn.Linear(emb, vocab)

    def forward(self, x):
        return self.out(self.tokens(x))


def train_char_model(loader, vocab_size):
    model = CharLM(vocab_size).to(device)
    opt = torch.optim.Adam(model.parameters())
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        logits = model(x)  # want: AMP004
        loss = F.cross_entropy(logits.flatten(0, 1), y.flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
