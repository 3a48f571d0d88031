# A WGAN-GP critic step: its gradient penalty differentiates through the
# gradient with respect to the inputs (create_graph=True), which
# autocast handles (PyTorch's AMP examples scale it); the step keeps its
# AMP004 finding.
import torch
import torch.nn as nn

critic = nn.Sequential(nn.Linear(2048, 2048), nn.LeakyReLU(0.2), nn.Linear(2048, 2048), nn.LeakyReLU(0.2), nn.Linear(2048, 1)).cuda()
opt = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.0, 0.9), fused=True)


def train(loader, fake_batches):
    for real, fake in zip(loader, fake_batches):
        real = real.cuda(non_blocking=True)
        eps = torch.rand(real.size(0), 1, device="cuda")
        mixed = (eps * real + (1 - eps) * fake).requires_grad_(True)
        grad = torch.autograd.grad(critic(mixed).sum(), mixed, create_graph=True)[0]  # want: AMP004
        penalty = ((grad.norm(2, dim=1) - 1) ** 2).mean()
        loss = critic(fake).mean() - critic(real).mean() + 10 * penalty
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    from data import loader, fakes

    train(loader, fakes)
