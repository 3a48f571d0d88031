# The test loader is read once, after the epochs: by a metric function of
# this file (twice) and by one loop that trains nothing (blind sample
# S28C's CORAL). Pinning it buys a share of a pass that runs once. The
# training and validation loaders, read every epoch, are reported.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

NUM_WORKERS = 4
DEVICE = torch.device("cuda")


def compute_mae(model, data_loader, device):
    mae, n = 0.0, 0
    for features, targets in data_loader:
        features, targets = features.to(device), targets.to(device)
        mae += (model(features).squeeze(1) - targets).abs().sum()
        n += targets.size(0)
    return mae / n


def main(train_dataset, valid_dataset, test_dataset, epochs=50):
    train_loader = DataLoader(train_dataset, batch_size=256, shuffle=True, num_workers=NUM_WORKERS)  # want: LOAD002
    valid_loader = DataLoader(valid_dataset, batch_size=256, num_workers=NUM_WORKERS)  # want: LOAD002
    test_loader = DataLoader(test_dataset, batch_size=256, num_workers=NUM_WORKERS)
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 120 * 120, 512), nn.ReLU(), nn.Linear(512, 1)).to(DEVICE)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-4, fused=True)
    for epoch in range(epochs):
        model.train()
        for features, targets in train_loader:
            features, targets = features.to(DEVICE), targets.to(DEVICE)
            loss = nn.functional.l1_loss(model(features).squeeze(1), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            print(epoch, compute_mae(model, valid_loader, DEVICE))
    with torch.no_grad():
        print("test", compute_mae(model, test_loader, DEVICE), compute_mae(model, test_loader, DEVICE))
        for features, targets in test_loader:
            print(model(features.to(DEVICE)).squeeze(1)[:4])
            break


if __name__ == "__main__":
    main(None, None, None)
