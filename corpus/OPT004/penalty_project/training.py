import torch
from torch import autograd


class Trainer:
    def __init__(self, generator, critic, g_opt, c_opt, gp_weight=10):
        self.G, self.D = generator, critic
        self.g_opt, self.c_opt = g_opt, c_opt
        self.gp_weight = gp_weight

    def gradient_penalty(self, real, fake):
        alpha = torch.rand(real.size(0), 1, 1, 1, device=real.device)
        mixed = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
        out = self.D(mixed)
        grads = autograd.grad(out, mixed, torch.ones_like(out), create_graph=True, retain_graph=True)[0]
        return self.gp_weight * ((grads.flatten(1).norm(2, dim=1) - 1) ** 2).mean()

    def critic_step(self, real, z):
        fake = self.G(z).detach()
        loss = self.D(fake).mean() - self.D(real).mean() + self.gradient_penalty(real, fake)
        self.c_opt.zero_grad()
        loss.backward()
        self.c_opt.step()

    def train(self, loader, epochs):
        for _ in range(epochs):
            for real, _ in loader:
                real = real.cuda(non_blocking=True)
                self.critic_step(real, torch.randn(real.size(0), 100, device="cuda"))
