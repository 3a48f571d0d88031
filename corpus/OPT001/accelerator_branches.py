# gpuopt-env: target-gpu=h100
# ImageNet- and MoCo-style placement: the model is moved on each branch of
# an if statement (in place before a DDP wrapper, or by rebinding), one
# branch raises, and one keeps it on the CPU on purpose. The optimizers are
# built over CUDA parameters (when a GPU is there); a branch chain that
# never moves the model to CUDA stays silent.
import torch
import torch.nn as nn
import torchvision.models as models


def build(args, use_accel, device):
    model = models.resnet50()
    if not use_accel:
        print("using CPU, this will be slow")
    elif args.distributed:
        if args.gpu is not None:
            torch.cuda.set_device(args.gpu)
            model.cuda(args.gpu)
            model = nn.parallel.DistributedDataParallel(model, device_ids=[args.gpu])
        else:
            model.cuda()
            model = nn.parallel.DistributedDataParallel(model)
    else:
        model = nn.DataParallel(model).cuda()
    optimizer = torch.optim.SGD(model.parameters(), args.lr, momentum=0.9)  # want: OPT001
    return model, optimizer


def build_moco(args):
    model = models.resnet50()
    if args.distributed:
        model.cuda()
        model = nn.parallel.DistributedDataParallel(model)
    elif args.gpu is not None:
        model = model.cuda(args.gpu)
    else:
        raise NotImplementedError("only DistributedDataParallel is supported")
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)  # want: OPT001
    return model, optimizer


def build_half(args):
    # Neither branch moves the model: nothing says it is on CUDA.
    model = models.resnet18()
    if args.half:
        model = model.half()
    else:
        model = model.float()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    return model, optimizer
