# The script names no device: the Trainer (trainer.py) moves the model to
# the GPU and trains it.
import torch

from net import TinyLM
from trainer import Trainer, Reporter


def main(dataset):
    torch.manual_seed(0)
    model = TinyLM(vocab=128)  # want: OPT004
    Trainer(model, dataset).run()

    # Only reported on: not trained.
    probe = TinyLM(vocab=16)
    Reporter(probe).report()
