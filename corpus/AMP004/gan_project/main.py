import argparse

from gan import GAN

parser = argparse.ArgumentParser()
parser.add_argument("--batch_size", type=int, default=64)
parser.add_argument("--input_size", type=int, default=28)
args = parser.parse_args()

gan = GAN(args, channels=1)
