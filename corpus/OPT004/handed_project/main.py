import torch

from engine import run_training, summarize
from nets import build, build_for_inspection
from vendored_models import ResNetish


def main(loader):
    net, opt = build(0.1)
    run_training(net, opt, loader, 5)
    print(summarize(build_for_inspection()))

    # A model class from a module gpuopt cannot read: its use says model.
    other = ResNetish(depth=18).cuda()  # want: OPT004
    run_training(other, torch.optim.AdamW(other.parameters()), loader, 5)

    # Handed to a function that does not train it.
    counted = ResNetish(depth=34).cuda()
    print(summarize(counted))
