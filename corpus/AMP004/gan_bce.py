# gpuopt-env: target-gpu=h100
# A GAN step in the shape of pytorch/examples' dcgan: three backwards per
# iteration, each with its own forward, and a BCELoss on sigmoid outputs:
# found once for the step, naming the other two forward passes, but no fix
# (autocast refuses BCELoss, and bf16 sigmoid outputs saturate it:
# BCEWithLogitsLoss first, by hand).
import torch
import torch.nn as nn

device = torch.device("cuda")
netG = nn.Sequential(nn.Linear(16, 4096), nn.ReLU(), nn.Linear(4096, 4096), nn.Tanh()).to(device)
netD = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 1), nn.Sigmoid()).to(device)
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters())
optimizerG = torch.optim.Adam(netG.parameters())

for i in range(100):
    netD.zero_grad()
    real = torch.randn(8, 4096, device=device)
    label = torch.ones(8, device=device)

    output = netD(real).view(-1)  # want: AMP004
    errD_real = criterion(output, label)
    errD_real.backward()

    # train with fake
    noise = torch.randn(8, 16, device=device)
    fake = netG(noise)
    label.fill_(0)
    output = netD(fake.detach()).view(-1)
    errD_fake = criterion(output, label)
    errD_fake.backward()
    optimizerD.step()

    netG.zero_grad()
    label.fill_(1)
    output = netD(fake).view(-1)
    errG = criterion(output, label)
    errG.backward()
    optimizerG.step()
