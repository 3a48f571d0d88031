# gpuopt-env: target-gpu=h100
# A GAN trainer that keeps nn.BCELoss on self: autocast refuses BCELoss on
# sigmoid outputs (RuntimeError), so the finding carries no wrap; it says to
# switch to BCEWithLogitsLoss first. (The generator, a parameter nothing
# shows to be a module, is not taken for the forward; the discriminator,
# whose parameters the optimizer steps, is; the BCELoss never is.)
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, G, D, loader):
        self.G = G.cuda()
        self.D = D.cuda()
        self.loader = loader
        self.loss = nn.BCELoss()
        self.opt_D = torch.optim.Adam(self.D.parameters(), lr=1e-4, fused=True)

    def train(self, epochs):
        for epoch in range(epochs):
            for imgs in self.loader:
                r_imgs = imgs.cuda()
                f_imgs = self.G(torch.randn(imgs.size(0), 100, device="cuda"))
                r_logit = self.D(r_imgs)  # want: AMP004
                f_logit = self.D(f_imgs.detach())
                loss_D = (self.loss(r_logit, torch.ones_like(r_logit)) + self.loss(f_logit, torch.zeros_like(f_logit))) / 2
                self.opt_D.zero_grad()
                loss_D.backward()
                self.opt_D.step()
