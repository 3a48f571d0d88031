# A VAE's sampler builds its latent on the CPU and moves it, then hands
# it to its decoder's decode(), which runs up to 150 steps: the set-up runs
# once per decoding, a small share of it (blind sample S26F's
# hgraph2graph). The decoder's own per-step factory is reported.
import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, latent, vocab):
        super().__init__()
        self.cell = nn.GRUCell(latent, latent)
        self.out = nn.Linear(latent, vocab)

    def decode(self, z, max_decode_step=150):
        h, tokens = z, []
        for _ in range(max_decode_step):
            h = self.cell(torch.zeros(z.shape).cuda(), h)  # want: XFER001
            tokens.append(self.out(h).argmax(-1))
        return torch.stack(tokens, 1)


class VAE(nn.Module):
    def __init__(self, latent=256, vocab=1000):
        super().__init__()
        self.latent = latent
        self.encoder = nn.Linear(vocab, latent)
        self.decoder = Decoder(latent, vocab)

    def forward(self, x):
        return self.decoder.cell(self.encoder(x), torch.zeros_like(self.encoder(x)))

    def sample(self, batch_size):
        z = torch.randn(batch_size, self.latent).cuda()
        return self.decoder.decode(z)


if __name__ == "__main__":
    vae = VAE().cuda()
    for _ in range(100):
        print(vae.sample(64).shape)
