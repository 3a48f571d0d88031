# The final evaluation runs once after training: its per-batch .item()
# syncs are paid once (blind sample S16J's evaluate_standard). The
# validation run every epoch, and a helper that the training loop calls
# every few steps, keep their findings.
import torch
import torch.nn.functional as F


def evaluate(model, batches):
    total = 0.0
    with torch.no_grad():
        for x, y in batches:
            loss = F.cross_entropy(model(x.cuda()), y.cuda())
            total += loss.item()
    return total


def validate(model, batches):
    total = 0.0
    with torch.no_grad():
        for x, y in batches:
            loss = F.cross_entropy(model(x.cuda()), y.cuda())
            total += loss.item()  # want: SYNC002
    return total


def calc_loss_loader(model, batches):
    total = 0.0
    for x, y in batches:
        loss = F.cross_entropy(model(x.cuda()), y.cuda())
        total += loss.item()  # want: SYNC002
    return total


def estimate(model, batches):
    model.eval()
    with torch.no_grad():
        loss = calc_loss_loader(model, batches)
    model.train()
    return loss


def main(model, train_loader, val_loader, test_loader):
    optimizer = torch.optim.AdamW(model.parameters(), fused=True)
    step = 0
    for epoch in range(100):
        for x, y in train_loader:
            loss = F.cross_entropy(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
            if step % 500 == 0:
                print(estimate(model, val_loader))
        print(validate(model, val_loader))
    print(evaluate(model, test_loader))


if __name__ == "__main__":
    net = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 10)).cuda()
    main(net, train_loader, val_loader, test_loader)
