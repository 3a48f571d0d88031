# The evaluation function is reached through main() -> a task -> train()
# -> evaluate(): no caller on the way wraps it in no_grad, so its loop runs
# with autograd on. (A caller under torch.no_grad() keeps it silent:
# negatives.py.)
import torch
import torch.nn as nn


def evaluate(loader, model):
    model.eval()
    preds = []
    for x, y in loader:  # want: MEM003
        preds.append(model(x.cuda()).argmax(1).cpu())
    return preds


def train(loader, model, optimizer):
    for epoch in range(10):
        model.train()
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        evaluate(loader, model)


def task(args):
    model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10)).cuda()
    train(args.loader, model, torch.optim.Adam(model.parameters(), fused=True))


def main(args):
    task(args)


if __name__ == "__main__":
    main(None)
