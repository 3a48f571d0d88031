import torch

from GAN import GAN


def main(loader):
    torch.backends.cudnn.benchmark = True
    gan = GAN(loader)
    gan.train(25)
