# gpuopt-env: target-gpu=h100
# Networks handed to the class that runs them. A narrow encoder and a
# margin head wrapped in EncoderWithHead are narrow (no finding);
# the same wrapper around a torchvision ResNet-50 is not, nor is a small
# language model whose vocabulary is read from its data (the output layer
# is hidden x vocabulary per token), so their fixes stay.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision


class SmallEncoder(nn.Module):
    def __init__(self, dim=2):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 20, 5)
        self.conv2 = nn.Conv2d(20, 50, 5)
        self.fc = nn.Linear(4 * 4 * 50, dim)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))


class MarginHead(nn.Module):
    def __init__(self, in_features, classes, scale=30.0):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(classes, in_features))
        self.scale = scale

    def forward(self, x):
        return self.scale * F.linear(F.normalize(x), F.normalize(self.weight))


class EncoderWithHead(nn.Module):
    def __init__(self, encoder: nn.Module, head: nn.Module):
        super().__init__()
        self.encoder = encoder
        self.head = head

    def forward(self, x):
        return self.head(self.encoder(x))


class TinyLM(nn.Module):
    def __init__(self, vocab, dim=512):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        return self.out(self.embed(tokens))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def fit(model, loader, epochs=3):
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()


def small(loader):
    model = EncoderWithHead(encoder=SmallEncoder(dim=2), head=MarginHead(2, 10))
    model = model.to(device)
    model = nn.DataParallel(model)
    fit(model, loader)


def resnet(loader):
    model = EncoderWithHead(torchvision.models.resnet50(), nn.Linear(1000, 10)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = F.cross_entropy(model(x), y)  # want: AMP004
        opt.zero_grad()
        loss.backward()
        opt.step()


def language_model(loader, vocab):
    model = TinyLM(len(vocab)).to(device)
    opt = torch.optim.Adam(model.parameters(), fused=True)
    for tokens, targets in loader:
        tokens, targets = tokens.to(device), targets.to(device)
        logits = model(tokens)  # want: AMP004
        loss = F.cross_entropy(logits.flatten(0, 1), targets.flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
