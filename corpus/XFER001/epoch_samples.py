# The epoch loop trains (train() runs the batch loop), then draws a grid
# of samples from noise once (pytorch-vqvae's generate_samples): that
# noise is built once per epoch, not per step, and is left alone. The
# noise built inside the batch loop is reported.
import torch
import torch.nn as nn

decoder = nn.Sequential(nn.ConvTranspose2d(128, 256, 4), nn.ReLU(), nn.ConvTranspose2d(256, 3, 4)).cuda()
optimizer = torch.optim.Adam(decoder.parameters(), lr=2e-4, fused=True)
torch.backends.cudnn.benchmark = True


def train(loader):
    for x in loader:
        x = x.cuda(non_blocking=True)
        z = torch.randn(x.size(0), 128, 1, 1).cuda()  # want: XFER001
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = nn.functional.mse_loss(decoder(z), x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def generate_samples():
    z = torch.randn(64, 128, 1, 1).cuda()
    with torch.no_grad():
        return decoder(z).cpu()


def main(loader, epochs):
    for epoch in range(epochs):
        train(loader)
        generate_samples()


if __name__ == "__main__":
    main(None, 100)
