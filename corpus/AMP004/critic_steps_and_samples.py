# gpuopt-env: target-gpu=h100
# A conditional image-translation GAN as StarGAN writes it (blind sample
# S35D): the critic's step, then every n_critic iterations the
# generator's, in one loop. One finding for the loop: the critic's pass
# has no fix (its fake images feed the generator step's pass outside the
# wrap), and the generator's pass joins it instead of being reported
# again. The fixed-image translations every sample_step iterations, a
# debug sample inside training, stay silent (in train_two_domains too,
# whose step runs in an inner loop per domain).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.utils import save_image


class Generator(nn.Module):
    def __init__(self, conv_dim=64, c_dim=5):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3 + c_dim, conv_dim, 7, padding=3), nn.InstanceNorm2d(conv_dim), nn.ReLU(True),
            nn.Conv2d(conv_dim, conv_dim * 2, 4, stride=2, padding=1), nn.InstanceNorm2d(conv_dim * 2), nn.ReLU(True),
            nn.Conv2d(conv_dim * 2, conv_dim * 4, 4, stride=2, padding=1), nn.InstanceNorm2d(conv_dim * 4), nn.ReLU(True),
            *[nn.Conv2d(conv_dim * 4, conv_dim * 4, 3, padding=1) for _ in range(6)],
            nn.ConvTranspose2d(conv_dim * 4, conv_dim * 2, 4, stride=2, padding=1), nn.InstanceNorm2d(conv_dim * 2), nn.ReLU(True),
            nn.ConvTranspose2d(conv_dim * 2, conv_dim, 4, stride=2, padding=1), nn.InstanceNorm2d(conv_dim), nn.ReLU(True),
            nn.Conv2d(conv_dim, 3, 7, padding=3), nn.Tanh(),
        )

    def forward(self, x, c):
        c = c.view(c.size(0), c.size(1), 1, 1).repeat(1, 1, x.size(2), x.size(3))
        return self.net(torch.cat([x, c], dim=1))


class Critic(nn.Module):
    def __init__(self, conv_dim=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, conv_dim, 4, stride=2, padding=1), nn.LeakyReLU(0.01),
            nn.Conv2d(conv_dim, conv_dim * 2, 4, stride=2, padding=1), nn.LeakyReLU(0.01),
            nn.Conv2d(conv_dim * 2, conv_dim * 4, 4, stride=2, padding=1), nn.LeakyReLU(0.01),
            nn.Conv2d(conv_dim * 4, conv_dim * 8, 4, stride=2, padding=1), nn.LeakyReLU(0.01),
            nn.Conv2d(conv_dim * 8, 1, 3, padding=1),
        )

    def forward(self, x):
        return self.net(x)


def train(loader, num_iters=200000, n_critic=5, sample_step=1000):
    device = torch.device("cuda")
    G, D = Generator().to(device), Critic().to(device)
    g_opt = torch.optim.Adam(G.parameters(), 1e-4, betas=(0.5, 0.999), fused=True)
    d_opt = torch.optim.Adam(D.parameters(), 1e-4, betas=(0.5, 0.999), fused=True)
    x_fixed, _ = next(iter(loader))
    x_fixed = x_fixed.to(device)
    fixed_labels = [torch.eye(5, device=device)[k].expand(x_fixed.size(0), 5) for k in range(5)]
    data_iter = iter(loader)
    for i in range(num_iters):
        try:
            x_real, label = next(data_iter)
        except StopIteration:
            data_iter = iter(loader)
            x_real, label = next(data_iter)
        x_real, label = x_real.to(device), label.to(device)
        c_trg = label[torch.randperm(label.size(0), device=device)]

        x_fake = G(x_real, c_trg)  # want: AMP004
        d_loss = -D(x_real).mean() + D(x_fake.detach()).mean()
        d_opt.zero_grad()
        d_loss.backward()
        d_opt.step()

        if (i + 1) % n_critic == 0:
            x_fake = G(x_real, c_trg)
            g_loss = -D(x_fake).mean() + F.l1_loss(G(x_fake, label), x_real)
            g_opt.zero_grad()
            g_loss.backward()
            g_opt.step()

        if (i + 1) % sample_step == 0:
            with torch.no_grad():
                fakes = [x_fixed]
                for c_fixed in fixed_labels:
                    fakes.append(G(x_fixed, c_fixed))
                save_image(torch.cat(fakes, dim=3).cpu(), "samples/%d.jpg" % (i + 1))


def train_two_domains(iterators, G, D, d_opt, x_fixed, fixed_labels, num_iters=200000, sample_step=1000):
    # The step runs once per domain in an inner loop; the debug sample
    # sits in the outer loop, under its own every-N guard.
    G.train()
    D.train()
    for i in range(num_iters):
        for it in iterators:
            x_real, c_trg = next(it)
            x_fake = G(x_real, c_trg)  # want: AMP004
            d_loss = -D(x_real).mean() + D(x_fake.detach()).mean()
            d_opt.zero_grad()
            d_loss.backward()
            d_opt.step()
        if (i + 1) % sample_step == 0:
            with torch.no_grad():
                fakes = [x_fixed]
                for c_fixed in fixed_labels:
                    fakes.append(G(x_fixed, c_fixed))
                save_image(torch.cat(fakes, dim=3).cpu(), "samples/%d.jpg" % (i + 1))
