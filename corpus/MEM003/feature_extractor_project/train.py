"""Reference spectrograms of a few test clips, made once before training
by a module with buffers only (blind sample S29F's MelGAN): over a
loader's tensors autograd records nothing, so MEM003 says nothing. The
generator's validation pass without no_grad is still reported."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from modules import Audio2Mel


def main(train_set, test_set, steps):
    fft = Audio2Mel().cuda()
    netG = nn.Sequential(nn.Conv1d(80, 512, 7, padding=3), nn.LeakyReLU(0.2), nn.Conv1d(512, 1, 7, padding=3)).cuda()
    optG = torch.optim.Adam(netG.parameters(), lr=1e-4, fused=True)
    test_loader = DataLoader(test_set, batch_size=1)
    test_voc = []
    for i, x_t in enumerate(test_loader):
        test_voc.append(fft(x_t.cuda()).detach())
    train_loader = DataLoader(train_set, batch_size=16, num_workers=4, pin_memory=True, persistent_workers=True)
    for epoch in range(steps):
        netG.train()
        for x in train_loader:
            x = x.cuda(non_blocking=True)
            loss = (netG(fft(x)) - x[..., :1]).abs().mean()
            optG.zero_grad()
            loss.backward()
            optG.step()
        netG.eval()
        for s_t in test_voc:  # want: MEM003
            netG(s_t)


if __name__ == "__main__":
    from data import train_set, test_set

    main(train_set, test_set, 100)
