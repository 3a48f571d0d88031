# gpuopt-env: target-gpu=h100
# torch, nn, Adam, DataLoader and device all come through `from utils import *`.
from utils import *


def main(dataset):
    model = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 10)).to(device)
    opt = Adam(model.parameters(), lr=1e-3)  # want: OPT001
    loader = DataLoader(dataset, batch_size=64, num_workers=4, pin_memory=True)
    for epoch in range(10):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main(None)
