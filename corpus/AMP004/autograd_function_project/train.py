# gpuopt-env: target-gpu=h100
# A VQ-VAE of 256 channels whose quantizer is a torch.autograd.Function of
# functions.py: under autocast its forward would see bf16 inputs, and a
# nearest-code search ties at that precision, so AMP004 offers no wrap and
# says what to check.
import torch
import torch.nn as nn
import torch.nn.functional as F

from functions import NearestCode


class VQVAE(nn.Module):
    def __init__(self, dim=256, k=512):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, dim, 4, 2, 1), nn.ReLU(), nn.Conv2d(dim, dim, 4, 2, 1))
        self.codebook = nn.Embedding(k, dim)
        self.decoder = nn.Sequential(nn.ConvTranspose2d(dim, dim, 4, 2, 1), nn.ReLU(), nn.ConvTranspose2d(dim, 3, 4, 2, 1))

    def forward(self, x):
        z = self.encoder(x)
        flat = z.permute(0, 2, 3, 1).reshape(-1, z.size(1))
        codes = NearestCode.apply(flat, self.codebook.weight)
        q = self.codebook(codes).view(z.size(0), z.size(2), z.size(3), -1).permute(0, 3, 1, 2)
        return self.decoder(z + (q - z).detach())


model = VQVAE().cuda()
opt = torch.optim.Adam(model.parameters(), lr=2e-4, fused=True)


def train(loader):
    for images, _ in loader:
        images = images.cuda(non_blocking=True)
        loss = F.mse_loss(model(images), images)  # want: AMP004
        opt.zero_grad()
        loss.backward()
        opt.step()
