# `if args.model == "SegNet-ConvLSTM" or "UNet-ConvLSTM":` tests the
# non-empty string "UNet-ConvLSTM", which is always true: the `else:`
# branch never runs (blind sample S22D's lane detector, whose loaders
# there got four findings). Nothing in it is reported or rewritten; an
# `else:` after an ordinary test keeps its findings.
import argparse

import torch
from torch.utils.data import DataLoader


def main(args, train_set, model):
    if args.model == "SegNet-ConvLSTM" or "UNet-ConvLSTM":
        loader = DataLoader(train_set, batch_size=16, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True)
    else:
        loader = DataLoader(train_set, batch_size=16, shuffle=True)
    if args.model == "UNet":
        extra = DataLoader(train_set, batch_size=16, num_workers=4, pin_memory=True, persistent_workers=True)
    else:
        extra = DataLoader(train_set, batch_size=16, pin_memory=True)  # want: LOAD001
    model = model.cuda()
    optimizer = torch.optim.Adam(model.parameters(), fused=True)
    for epoch in range(100):
        for x, y in loader:
            loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        for x, y in extra:
            loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="UNet-ConvLSTM")
    main(parser.parse_args(), None, None)
