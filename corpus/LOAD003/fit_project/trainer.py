# A trainer module: fit() runs the epochs and hands each loader to the
# function that iterates it.
import torch


def fit(train_loader, val_loader, model, loss_fn, optimizer, n_epochs, cuda):
    for epoch in range(n_epochs):
        train_epoch(train_loader, model, loss_fn, optimizer, cuda)
        test_epoch(val_loader, model, loss_fn, cuda)


def train_epoch(train_loader, model, loss_fn, optimizer, cuda):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        if cuda:
            data, target = data.cuda(), target.cuda()
        optimizer.zero_grad()
        loss = loss_fn(model(data), target)
        loss.backward()
        optimizer.step()


def test_epoch(val_loader, model, loss_fn, cuda):
    with torch.no_grad():
        model.eval()
        for batch_idx, (data, target) in enumerate(val_loader):
            if cuda:
                data, target = data.cuda(), target.cuda()
            loss_fn(model(data), target)
