# An evaluation over one image a batch from a pinned loader that reads
# its metrics on the host every iteration: the copy of one sample is
# microseconds and the host waits at the .item() anyway, so no
# non_blocking advice. The training loop of the same loader keeps it.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def evaluate(model, dataset, device):
    loader = DataLoader(dataset, batch_size=1, shuffle=False, num_workers=4, pin_memory=True)
    model.eval()
    errors = []
    with torch.no_grad():
        for image, depth in loader:
            image, depth = image.to(device), depth.to(device)
            pred = model(image)
            valid = depth > 0
            errors.append(torch.abs(pred[valid] - depth[valid]).mean().item())
    return sum(errors) / len(errors)


def train(model, dataset, device, epochs=10):
    loader = DataLoader(dataset, batch_size=1, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    for epoch in range(epochs):
        for image, depth in loader:
            image, depth = image.to(device), depth.to(device)  # want: XFER002, XFER002
            loss = nn.functional.l1_loss(model(image), depth)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    net = nn.Conv2d(3, 1, 3, padding=1).cuda()
    data = [(torch.randn(3, 64, 64), torch.rand(1, 64, 64))]
    train(net, data, "cuda")
    print(evaluate(net, data, "cuda"))
