# gpuopt-env: target-gpu=h100
# A WGAN-GP whose generator step is wrapped in bf16 autocast (by hand, or
# by this rule's fix of that step alone) while the critic's inner loop of
# steps is not (blind sample S37K's anime WGAN-GP): the region covers the
# generator's statements, not the critic's loop beside them, which keeps
# its finding.
import torch
import torch.nn as nn


def block(i, o):
    return nn.Sequential(nn.Conv2d(i, o, 4, 2, 1), nn.InstanceNorm2d(o, affine=True), nn.LeakyReLU(0.2))


critic = nn.Sequential(block(3, 256), block(256, 512), block(512, 1024), nn.Conv2d(1024, 1, 4, 2, 0)).cuda()
gen = nn.Sequential(nn.ConvTranspose2d(128, 1024, 4, 1, 0), nn.ReLU(), nn.ConvTranspose2d(1024, 512, 4, 2, 1), nn.ReLU(),
                    nn.ConvTranspose2d(512, 256, 4, 2, 1), nn.ReLU(), nn.ConvTranspose2d(256, 3, 4, 2, 1), nn.Tanh()).cuda()
critic_optim = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.0, 0.9), fused=True)
gen_optim = torch.optim.Adam(gen.parameters(), lr=1e-4, betas=(0.0, 0.9), fused=True)


def train(loader, epochs, critic_steps=5):
    for epoch in range(epochs):
        for x, _ in loader:
            real = x.cuda(non_blocking=True)
            for _ in range(critic_steps):
                z = torch.randn(real.shape[0], 128, 1, 1, device="cuda")
                fake = gen(z)  # want: AMP004
                critic_loss = critic(fake).mean() - critic(real).mean()
                critic.zero_grad()
                critic_loss.backward(retain_graph=True)
                critic_optim.step()
            with torch.autocast("cuda", dtype=torch.bfloat16):
                gen_loss = -critic(fake).mean()
            gen.zero_grad()
            gen_loss.backward()
            gen_optim.step()
