# A GAN's discriminator stepped a few times on each batch (blind sample
# S29F's MelGAN): the sum of those repeats' losses is reset for every
# batch, so it keeps the graphs of one batch's repeats, which backward has
# already emptied, not every step's: silent. A total kept across batches
# is still reported.
import torch
from torch.utils.data import DataLoader, TensorDataset

disc = torch.nn.Linear(256, 1).cuda()
optim_d = torch.optim.Adam(disc.parameters(), fused=True)
loader = DataLoader(TensorDataset(torch.randn(4096, 256)), batch_size=64, num_workers=4, pin_memory=True, persistent_workers=True)
epoch_total = 0.0
for epoch in range(100):
    for (x,) in loader:
        x = x.cuda(non_blocking=True)
        loss_d_sum = 0.0
        for _ in range(3):
            optim_d.zero_grad()
            loss_d = disc(x).pow(2).mean()
            loss_d.backward()
            optim_d.step()
            loss_d_sum += loss_d
            epoch_total += loss_d  # want: MEM004
        print((loss_d_sum / 3).item())
