# pin_memory given by a module constant, and through a helper's parameter
# whose only call site passes that constant.
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
PIN_MEMORY = True
NUM_WORKERS = 2


def get_loaders(ds, batch_size, num_workers=4, pin_memory=True):
    return DataLoader(ds, batch_size=batch_size, num_workers=num_workers, pin_memory=pin_memory, persistent_workers=True)


def main():
    ds = datasets.MNIST("d", download=True, transform=transforms.ToTensor())
    loader = DataLoader(ds, batch_size=64, num_workers=NUM_WORKERS, pin_memory=PIN_MEMORY, persistent_workers=True)
    other = get_loaders(ds, 64, NUM_WORKERS, PIN_MEMORY)
    model = torch.nn.Linear(784, 10).to(DEVICE)
    opt = torch.optim.Adam(model.parameters())
    for epoch in range(3):
        for x, y in loader:
            x = x.to(DEVICE)  # want: XFER002
            y = y.to(DEVICE)  # want: XFER002
            loss = torch.nn.functional.cross_entropy(model(x.flatten(1)), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        for x, y in other:
            loss = torch.nn.functional.cross_entropy(model(x.flatten(1).to(DEVICE)), y.to(DEVICE))  # want: XFER002
            loss.backward()


if __name__ == "__main__":
    main()
