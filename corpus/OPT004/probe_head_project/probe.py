# A linear probe: the frozen backbone runs under no_grad, and the head
# trained is pooling, flattening and one nn.Linear, in a sibling module
# (CMC's LinearClassifierResNet: blind sample S16B). Nothing to compile.
import torch
import torch.nn as nn
import torchvision
from models.heads import Head


def set_model(args):
    if args.model == "a":
        model = torchvision.models.alexnet()
        classifier = Head(args.n_label)
    elif args.model == "r":
        model = torchvision.models.resnet50()
        classifier = Head(args.n_label)
    else:
        raise NotImplementedError(args.model)
    model.load_state_dict(torch.load(args.path))
    model = model.cuda()
    classifier = classifier.cuda()
    model.eval()
    return model, classifier


def train(loader, model, classifier, optimizer):
    for x, y in loader:
        with torch.no_grad():
            feat = model(x.cuda())
        loss = nn.functional.cross_entropy(classifier(feat), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(args):
    model, classifier = set_model(args)
    optimizer = torch.optim.SGD(classifier.parameters(), lr=0.1)
    for epoch in range(100):
        train(loader, model, classifier, optimizer)
