# gpuopt-env: cpus=16
# A diffusion model's loop over a progress bar opened as a context manager
# (`with tqdm(loader) as bar:`): the loader still feeds the GPU loop.
import torch
from torch.utils.data import DataLoader
from torchvision.datasets import CIFAR10
from tqdm import tqdm

device = torch.device("cuda")


def train():
    net = torch.nn.Linear(8, 2).to(device)
    optimizer = torch.optim.AdamW(net.parameters())
    dataloader = DataLoader(CIFAR10("data"), batch_size=80, shuffle=True)  # want: LOAD001
    for e in range(10):
        with tqdm(dataloader, dynamic_ncols=True) as bar:
            for images, labels in bar:
                optimizer.zero_grad()
                loss = net(images.to(device)).sum()
                loss.backward()
                optimizer.step()


if __name__ == "__main__":
    train()
