import argparse

import torch


def parse():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpu_ids", type=str, default="0", help="e.g. 0 or 0,1; -1 for the CPU")
    parser.add_argument("--batch_size", type=int, default=16)
    parser.add_argument("--num_threads", type=int, default=4)
    parser.add_argument("--lr", type=float, default=2e-4)
    parser.add_argument("--n_epochs", type=int, default=100)
    parser.add_argument("--print_freq", type=int, default=100)
    opt = parser.parse_args()
    opt.gpu_ids = [int(i) for i in opt.gpu_ids.split(",") if int(i) >= 0]
    if opt.gpu_ids:
        torch.cuda.set_device(opt.gpu_ids[0])
    return opt
