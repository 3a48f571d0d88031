# A training function over the dataset it is handed; the project's only
# Dataset converts a dtype with .to(), not a device (data.py): the loader
# runs in the main process and is reported (it was not, while any `.to(`
# in a project __getitem__ counted as a move to the GPU).
import torch
from torch.utils.data import DataLoader


def train(model, dataset, optimizer, epochs):
    loader = DataLoader(dataset, batch_size=32, shuffle=True)  # want: LOAD001
    for epoch in range(epochs):
        for img, mask in loader:
            loss = torch.nn.functional.binary_cross_entropy_with_logits(model(img.cuda()), mask.cuda().float())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
