import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def train_one_epoch(model, loader, criterion, optimizer):
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def eval_one_epoch(model, loader, criterion):
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            total += criterion(model(x.cuda()), y.cuda())
    return total


def model_train(model, dataset, dataset_val, args):
    loader = DataLoader(dataset, args.batch_size, shuffle=True)  # want: LOAD001
    loader_val = DataLoader(dataset_val, args.batch_size, shuffle=False)  # want: LOAD001
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        train_one_epoch(model, loader, nn.CrossEntropyLoss(), optimizer)
        eval_one_epoch(model, loader_val, nn.CrossEntropyLoss())


def model_eval(model, dataset_test, args):
    # built and read once, after training: one pass over the test split
    loader_test = DataLoader(dataset_test, args.batch_size, False)
    return eval_one_epoch(model, loader_test, nn.CrossEntropyLoss())


def main(model, dataset, dataset_val, dataset_test, args):
    if args.train_mode:
        model_train(model, dataset, dataset_val, args)
    model_eval(model, dataset_test, args)
