import argparse

from solver import Solver
from torchvision.models import resnet18

parser = argparse.ArgumentParser()
parser.add_argument("--data_path", default="data")
parser.add_argument("--batch_size", type=int, default=128)
parser.add_argument("--epochs", type=int, default=100)
Solver(parser.parse_args(), resnet18(num_classes=10)).train()
