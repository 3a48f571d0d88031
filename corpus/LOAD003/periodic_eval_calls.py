# A loader read by an evaluation that runs every few epochs and once more
# after training starts its workers every few epochs, not every epoch:
# persistent workers would sit idle in between. The final call, outside
# any loop, does not make it per-epoch. An evaluation every 10 batches of
# the training loop is frequent, and its loader is reported.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    """Augments a sample held in memory: work for workers, short epochs."""

    def __init__(self, paths):
        self.data = torch.randn(len(paths), 65)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        img = self.data[i] + 0.1 * torch.randn(65)
        return img[:64], img[64:65]


def evaluate(model, loader):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            total += nn.functional.mse_loss(model(x.cuda()), y.cuda())
    model.train()
    return total


def validate(model, loader):
    total = 0.0
    with torch.no_grad():
        for x, _ in loader:
            total += model(x.cuda()).mean()
    return total


def main(paths):
    model = nn.Sequential(nn.Linear(64, 512), nn.ReLU(), nn.Linear(512, 1)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    train_loader = DataLoader(Images(paths), batch_size=64, shuffle=True, num_workers=4)  # want: LOAD003
    test_loader = DataLoader(Images(paths), batch_size=64, num_workers=4)
    dev_loader = DataLoader(Images(paths), batch_size=64, num_workers=4)  # want: LOAD003
    for epoch in range(100):
        for step, (x, y) in enumerate(train_loader):
            loss = nn.functional.mse_loss(model(x.cuda()), y.cuda())
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 10 == 0:
                validate(model, dev_loader)
        if (epoch + 1) % 5 == 0:
            evaluate(model, test_loader)
    evaluate(model, test_loader)


if __name__ == "__main__":
    main([])
