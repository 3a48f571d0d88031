"""The optimizer is built over an alias of the model (the unwrapped module
kept beside its DistributedDataParallel wrapper): the parameters live where
the model was moved."""
import torch


def build(args, device):
    model = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.GELU(), torch.nn.Linear(16, 4))
    model.to(device)
    unwrapped = model
    if args.distributed:
        model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[args.gpu])
        unwrapped = model.module
    optimizer = torch.optim.AdamW(unwrapped.parameters(), lr=1e-3)  # want: OPT001
    return model, optimizer


build(None, torch.device("cuda"))
