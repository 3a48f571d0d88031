# A loop that converts every batch tensor on the host before copying it
# (`im.float().to(device)` of a float64 batch: blind sample S19C's
# VAE-Pytorch): the conversion makes a new tensor in pageable memory, so
# pinning the loader's batches would never reach the copy. A loader whose
# batch is copied as it comes is still reported.
import torch
from torch.utils.data import DataLoader


def train(model, optimizer, dataset, device, epochs):
    mnist_loader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=4)
    for epoch in range(epochs):
        for im, label in mnist_loader:
            im = im.float().to(device)
            label = label.long().to(device)
            loss = torch.nn.functional.cross_entropy(model(im), label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def finetune(model, optimizer, dataset, device, epochs):
    loader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=4)  # want: LOAD002
    for epoch in range(epochs):
        for im, label in loader:
            im, label = im.to(device), label.to(device)
            loss = torch.nn.functional.cross_entropy(model(im), label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    net = torch.nn.Linear(784, 10).cuda()
    train(net, torch.optim.Adam(net.parameters(), fused=True), torch.utils.data.TensorDataset(torch.rand(1000, 784).double(), torch.zeros(1000)), "cuda", 10)
    finetune(net, torch.optim.Adam(net.parameters(), fused=True), torch.utils.data.TensorDataset(torch.rand(1000, 784), torch.zeros(1000).long()), "cuda", 10)
