# The generator's wrapped forward hands fake_hr to the discriminator's
# pass below, outside the wrap: a bf16 input to fp32 conv weights raises
# at the first step (blind sample S18N's ESRGAN). AMP004 keeps the
# finding and names that pass, without the fix.
import torch
from torch import nn

generator = nn.Sequential(nn.Conv2d(64, 1024, 3, padding=1), nn.ReLU(), nn.Conv2d(1024, 64, 3, padding=1)).cuda()
discriminator = nn.Sequential(nn.Conv2d(64, 8, 3, stride=2), nn.Flatten(), nn.LazyLinear(1)).cuda()
opt_g = torch.optim.Adam(generator.parameters(), fused=True)
opt_d = torch.optim.Adam(discriminator.parameters(), fused=True)
for step in range(100000):
    lr = torch.randn(64, 64, 96, 96, device="cuda")
    hr = torch.randn(64, 64, 96, 96, device="cuda")
    fake_hr = generator(lr)  # want: AMP004
    g_loss = nn.functional.l1_loss(fake_hr, hr)
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    d_fake = discriminator(fake_hr.detach())
    d_loss = nn.functional.softplus(d_fake).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
