# A dance model's trainer is handed a GRU motion encoder and two MLP heads
# whose widths come from the command line (blind sample S37J's
# Dancing2Music): cuDNN's recurrent kernels take the step's time, which
# compiling the heads beside them leaves; no torch.compile advice. The
# same trainer handed a convolutional encoder keeps it.
import argparse

import torch

from nets import ConvEncoder, Decoder, Head, MotionEncoder
from trainer import Trainer


def build(args):
    encoder = MotionEncoder(hidden=args.hidden)
    decoder = Decoder(hidden=args.hidden)
    head = Head(hidden=args.hidden)
    return encoder, decoder, head


def main(loader, args):
    torch.manual_seed(args.seed)
    encoder, decoder, head = build(args)
    Trainer(loader, encoder, decoder, head).train(100)


def main_conv(loader, args):
    encoder = ConvEncoder(hidden=args.hidden)  # want: OPT004
    decoder = Decoder(hidden=args.hidden)  # want: OPT004
    head = Head(hidden=args.hidden)  # want: OPT004
    Trainer(loader, encoder, decoder, head).train(100)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--hidden", type=int)
    parser.add_argument("--seed", type=int, default=0)
    main(None, parser.parse_args())
