# gpuopt-env: cpus=16
# A course notebook's regression: the tensors are moved to the GPU before
# the TensorDataset is built, so workers (no CUDA) and pin_memory cannot
# serve it. The CPU one below is not reported either: workers on a
# TensorDataset in memory made a step 8× slower on an H100.
import torch
from torch.utils.data import DataLoader, TensorDataset

device = "cuda" if torch.cuda.is_available() else "cpu"
x_train = torch.randn(1000, 9).to(device)
y_train = torch.randn(1000, 1).to(device)
dataset_train = TensorDataset(x_train, y_train)
dataloader_train = DataLoader(dataset_train, batch_size=32, shuffle=True)
host = DataLoader(TensorDataset(torch.randn(1000, 9), torch.randn(1000, 1)), batch_size=32)

model = torch.nn.Linear(9, 1).to(device)
optimizer = torch.optim.Adam(model.parameters(), fused=True)


def fit():
    for epoch in range(10):
        for x, y in dataloader_train:
            loss = torch.nn.functional.mse_loss(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        for x, y in host:
            loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    fit()
