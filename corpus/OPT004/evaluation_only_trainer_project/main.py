# A script that trains through a project Trainer and, in check(), builds
# the same Trainer only to call test() on saved checkpoints (blind sample
# S37P's mean-teacher U-Net): the model built there is never trained, so
# it gets no torch.compile advice.
import torch

from models import TinyLM
from trainer import Trainer

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def train(loader, epochs):
    model = TinyLM(vocab=128)  # want: OPT004
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    trainer = Trainer(model, optimizer, device)
    trainer.loop_train(epochs, loader)


def check(checkpoint, loader):
    model = TinyLM(vocab=128)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    trainer = Trainer(model, optimizer, device)
    print(trainer.test(checkpoint, loader))
