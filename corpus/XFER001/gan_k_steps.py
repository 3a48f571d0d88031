# A GAN's batch loop runs k discriminator steps in a loop of its own: the
# generator's noise, built after that inner loop, is still per batch.
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def train(generator, discriminator, loader, g_opt, d_opt, k=1):
    for epoch in range(10):
        for images, _ in loader:
            images = images.to(device)
            for _ in range(k):
                z = torch.randn(images.shape[0], 128, 1, 1).to(device)  # want: XFER001
                d_loss = discriminator(generator(z).detach()).mean() - discriminator(images).mean()
                d_opt.zero_grad()
                d_loss.backward()
                d_opt.step()
            z = torch.randn(images.shape[0], 128, 1, 1).to(device)  # want: XFER001
            g_loss = -discriminator(generator(z)).mean()
            g_opt.zero_grad()
            g_loss.backward()
            g_opt.step()
