# The driver: a loader of image pairs handed, batch by batch, to the
# Translator's train_step (a method of another module that runs the
# backward). The loader feeds a GPU training step, so it wants pinned
# memory; the preview loader, whose batches go to sample(), is iterated
# inside that method, not here.
import torch
from torch.utils.data import DataLoader, TensorDataset

from translator import Translator


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = Translator(device=device)
    pairs = TensorDataset(torch.randn(512, 3, 64, 64), torch.randn(512, 3, 64, 64))
    loader = DataLoader(pairs, batch_size=32, shuffle=True, num_workers=4, persistent_workers=True)  # want: LOAD002
    for epoch in range(100):
        for source, target in loader:
            model.train_step(source, target)


if __name__ == "__main__":
    main()
