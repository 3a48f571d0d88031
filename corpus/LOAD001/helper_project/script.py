# Names no device: the Runner (runner.py) trains on the GPU when there is one.
from data import get_class_loader
from runner import Runner


def main(model, dataset, opt):
    loader = get_class_loader(dataset)
    Runner(model=model, loader=loader).run(opt, 10)
