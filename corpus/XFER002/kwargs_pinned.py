"""Pinned through a kwargs dict updated on the GPU path; the batches are
copied in a function the loader is passed to."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def train(model, device, train_loader, optimizer):
    model.train()
    for step, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)  # want: XFER002, XFER002
        loss = torch.nn.functional.mse_loss(model(data), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main():
    use_cuda = torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")
    train_kwargs = {"batch_size": 64}
    if use_cuda:
        cuda_kwargs = {"num_workers": 1, "pin_memory": True}
        train_kwargs.update(cuda_kwargs)
    loader = DataLoader(TensorDataset(torch.randn(128, 8), torch.randn(128, 2)), **train_kwargs)
    model = torch.nn.Linear(8, 2).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(2):
        train(model, device, loader, opt)


if __name__ == "__main__":
    main()
