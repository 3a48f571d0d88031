# One training run per fold, through a framework's fit(); empty_cache()
# between folds. The fold's setup calls a factory that returns a module
# (make_augmentations), which is not a forward pass: the fold loop is not
# a training step, and the call is once per fold. Silent.
import torch

from augment import make_augmentations
from trainer import Trainer


def train_fold(config, fold):
    trainer = Trainer(config)
    trainer.augmentations = make_augmentations(config["size"])
    trainer.fit(epochs=config["epochs"])


if __name__ == "__main__":
    config = {"size": 224, "epochs": 10}
    for fold in range(5):
        train_fold(config, fold)
        torch.cuda.empty_cache()
