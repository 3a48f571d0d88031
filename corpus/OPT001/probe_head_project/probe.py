# gpuopt-env: torch=2.4
# A linear probe: the optimizer steps the two tensors of a head of
# pooling, flattening and one nn.Linear (a sibling module's class, built
# in branches), while the frozen backbone's forward under no_grad is the
# step (CMC's eval_moco_ins.py: blind sample S16B). Fusing that update
# saves microseconds.
import torch
import torch.nn as nn
import torchvision
from models.heads import Head


def train(loader, model, classifier, optimizer):
    for x, y in loader:
        with torch.no_grad():
            feat = model(x.cuda())
        loss = nn.functional.cross_entropy(classifier(feat), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(args):
    if args.model == "resnet50":
        model = torchvision.models.resnet50()
        classifier = Head(args.n_label)
    elif args.model == "resnet101":
        model = torchvision.models.resnet101()
        classifier = Head(args.n_label)
    else:
        raise NotImplementedError(args.model)
    model.load_state_dict(torch.load(args.path))
    model = model.cuda()
    classifier = classifier.cuda()
    if args.adam:
        optimizer = torch.optim.Adam(classifier.parameters(), lr=args.lr)
    else:
        optimizer = torch.optim.SGD(classifier.parameters(), lr=args.lr, momentum=0.9)
    model.eval()
    for epoch in range(100):
        train(loader, model, classifier, optimizer)
