# empty_cache() once per epoch, around a step loop that lives in another
# module: not per step. Silent.
import torch

from epoch_fn import train_one_epoch


def main(model, loader, epochs):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(epochs):
        torch.cuda.empty_cache()
        train_one_epoch(model, loader, optimizer, torch.nn.CrossEntropyLoss())
