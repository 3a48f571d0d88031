# The script names no device: the Trainer (trainer.py) moves the model to
# the GPU and trains it.
import torch

from factory import ModelFactory
from net import TinyLM
from trainer import Trainer, Reporter


def main(dataset):
    torch.manual_seed(0)
    model = TinyLM(vocab=128)  # want: OPT004
    Trainer(model, dataset).run()

    # Only reported on: not trained.
    probe = TinyLM(vocab=16)
    Reporter(probe).report()


def from_factory(dataset):
    torch.manual_seed(0)
    factory = ModelFactory(256)
    big = factory.build()  # want: OPT004
    Trainer(big, dataset).run()
    # A description is not a model, whatever it is handed to.
    name = factory.describe()
    Reporter(name).report()
