# The training step calls the model's own compute_loss method, which runs
# the forward pass and the loss; its value is what backward() runs on.
# The wrap goes around that call.
import torch

from diffusion import Denoiser


def main(loader, epochs):
    model = Denoiser().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    for epoch in range(epochs):
        for x in loader:
            x = x.cuda(non_blocking=True)
            noise = torch.randn_like(x)
            t = torch.rand(x.shape[0], device=x.device)
            optimizer.zero_grad()
            batch_loss = model.compute_loss(x, noise, t)  # want: AMP004
            batch_loss.backward()
            optimizer.step()
