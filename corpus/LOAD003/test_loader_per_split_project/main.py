# Test loaders built once per data split (or once), each read by one
# evaluation: a new loader and new workers each time, so persistent
# workers keep nothing alive. The three share a name, and the loop that
# reads the per-split loaders also builds them. Silent.
import torch
from torch.utils.data import DataLoader

import engine
from data import get_split


def main(model, train_set, fi):
    model = model.cuda()
    opt = torch.optim.Adam(model.parameters())
    train_loader = DataLoader(train_set, batch_size=64, num_workers=8, shuffle=True, persistent_workers=True)
    engine.train_epoch(model, train_loader, opt, 50)
    if fi:
        test_loader = DataLoader(get_split("test"), batch_size=64, num_workers=8, pin_memory=True)
        engine.evaluate(model, test_loader)
    else:
        for i in range(4):
            test_loader = DataLoader(get_split(i), batch_size=64, num_workers=8, pin_memory=True)
            engine.evaluate(model, test_loader)
        test_loader = DataLoader(get_split("all"), batch_size=64, num_workers=8, pin_memory=True)
        engine.evaluate(model, test_loader)
