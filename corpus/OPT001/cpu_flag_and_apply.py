# gpuopt-env: target-gpu=h100
# PointNet's scripts: the model moves to the GPU unless --use_cpu is given,
# and an initialiser is applied after the move (`classifier =
# classifier.apply(weights_init)` returns the same module, still on CUDA).
import importlib

import torch


def weights_init(m):
    if isinstance(m, torch.nn.Linear):
        torch.nn.init.xavier_normal_(m.weight.data)


def main(args):
    MODEL = importlib.import_module(args.model)
    classifier = MODEL.get_model(40)
    if not args.use_cpu:
        classifier = classifier.cuda()
    optimizer = torch.optim.Adam(classifier.parameters(), lr=0.001)  # want: OPT001
    return optimizer


def partseg(args):
    MODEL = importlib.import_module(args.model)
    classifier = MODEL.get_model(50).cuda()
    try:
        checkpoint = torch.load("best_model.pth")
        classifier.load_state_dict(checkpoint["model_state_dict"])
    except FileNotFoundError:
        classifier = classifier.apply(weights_init)
    return torch.optim.SGD(classifier.parameters(), lr=0.01, momentum=0.9)  # want: OPT001


def on_cpu(args):
    MODEL = importlib.import_module(args.model)
    classifier = MODEL.get_model(40)
    if args.use_cpu:
        classifier = classifier.cpu()
    return torch.optim.Adam(classifier.parameters(), lr=0.001)
