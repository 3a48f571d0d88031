# A captioning model: the encoder runs in every step but only the decoder's
# parameters reach the optimizer. The encoder's hint says it is frozen
# rather than trained (blind sample S14C judged "this model is trained"
# untrue there); the recurrent decoder gets none (cuDNN's LSTM).
import torch
from torch import nn, optim

import torchvision


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(*list(torchvision.models.resnet152().children())[:-2])
        self.dim = 2048

    def forward(self, x):
        return self.net(x).flatten(2).transpose(1, 2)


class Decoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, 512)
        self.lstm = nn.LSTM(512 + dim, 512, batch_first=True)
        self.out = nn.Linear(512, vocab)

    def forward(self, feats, captions):
        ctx = feats.mean(1, keepdim=True).expand(-1, captions.shape[1], -1)
        h, _ = self.lstm(torch.cat([self.embed(captions), ctx], 2))
        return self.out(h)


def train(encoder, decoder, optimizer, loader):
    encoder.eval()
    decoder.train()
    for batch_idx, (imgs, captions) in enumerate(loader):
        imgs, captions = imgs.cuda(), captions.cuda()
        feats = encoder(imgs)
        preds = decoder(feats, captions)
        loss = nn.functional.cross_entropy(preds.flatten(0, 1), captions.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main():
    encoder = Encoder()  # want: OPT004
    decoder = Decoder(10000, encoder.dim)
    encoder.cuda()
    decoder.cuda()
    optimizer = optim.Adam(decoder.parameters(), lr=1e-4)
    for epoch in range(10):
        train(encoder, decoder, optimizer, make_loader())


if __name__ == "__main__":
    main()
