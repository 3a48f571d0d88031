# num_workers comes from a flag whose default is 0, read through a helper
# that returns the parsed arguments: by default the loader has no workers,
# and LOAD002's premise (workers above 0) does not hold (blind sample
# S16D's GPT2-chitchat). A flag defaulting to 4 is reported.
import argparse

import torch
from torch.utils.data import DataLoader


def set_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_workers", type=int, default=0)
    parser.add_argument("--val_workers", type=int, default=4)
    return parser.parse_args()


def train(model, train_set, val_set, args):
    loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=args.num_workers)
    val_loader = DataLoader(val_set, batch_size=64, num_workers=args.val_workers)  # want: LOAD002
    opt = torch.optim.Adam(model.parameters())
    for epoch in range(10):
        for x, y in loader:
            loss = model(x.cuda()).sub(y.cuda()).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            for x, y in val_loader:
                model(x.cuda())


def main():
    args = set_args()
    train(torch.nn.Linear(10, 10).cuda(), train_set, val_set, args)


if __name__ == "__main__":
    main()
