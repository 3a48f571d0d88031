# Batches that reach the GPU some way, or that gpuopt cannot follow: silent.
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset

device = torch.device("cuda")
model = torch.nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = TensorDataset(torch.randn(8, 4), torch.randn(8, 1))
loader = DataLoader(data, batch_size=2)

# Moved in the loop.
for x, y in loader:
    x, y = x.to(device), y.to(device)
    torch.nn.functional.mse_loss(model(x), y).backward()

# Moved inline.
for x, y in loader:
    torch.nn.functional.mse_loss(model(x.to(device)), y.cuda()).backward()


def to_gpu(t):
    return t.to(device)


# Handed to a helper that may move it.
for x, y in loader:
    torch.nn.functional.mse_loss(model(to_gpu(x)), to_gpu(y)).backward()

# Rebound in the loop by something gpuopt does not know.
for x, y in loader:
    x = to_gpu(x)
    y = to_gpu(y)
    torch.nn.functional.mse_loss(model(x), y).backward()

# A collate_fn may move the batch.
collated = DataLoader(data, batch_size=2, collate_fn=lambda b: [t.cuda() for t in torch.utils.data.default_collate(b)])
for x, y in collated:
    torch.nn.functional.mse_loss(model(x), y).backward()


class GPUData(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.randn(4, device="cuda"), torch.randn(1, device="cuda")


# The dataset's items already live on the GPU.
for x, y in DataLoader(GPUData(), batch_size=2):
    torch.nn.functional.mse_loss(model(x), y).backward()
gpu_loader = DataLoader(GPUData(), batch_size=2)
for x, y in gpu_loader:
    torch.nn.functional.mse_loss(model(x), y).backward()

# A TensorDataset of GPU tensors.
on_gpu = DataLoader(TensorDataset(torch.randn(8, 4).cuda(), torch.randn(8, 1).cuda()), batch_size=2)
for x, y in on_gpu:
    torch.nn.functional.mse_loss(model(x), y).backward()

# A dataset gpuopt cannot see into.
listed = DataLoader(list(zip(torch.randn(8, 4), torch.randn(8, 1))), batch_size=2)
for x, y in listed:
    torch.nn.functional.mse_loss(model(x), y).backward()

# Not a DataLoader.
def batches():
    yield torch.randn(2, 4), torch.randn(2, 1)


for x, y in batches():
    torch.nn.functional.mse_loss(model(x), y).backward()

# A model on the CPU.
cpu_model = torch.nn.Linear(4, 1)
for x, y in loader:
    torch.nn.functional.mse_loss(cpu_model(x), y).backward()


def train(model, loader, device):
    # The device is a parameter: not known to be CUDA.
    model = model.to(device)
    for x, y in loader:
        torch.nn.functional.mse_loss(model(x), y).backward()


# Moved at the end of a chain of tensor methods.
for x, y in loader:
    torch.nn.functional.mse_loss(model(x.float().to(device)), y.view(-1, 1).cuda()).backward()

# A dictionary batch (Hugging Face style): not this rule's shape.
for batch in loader:
    model(batch["x"]).sum().backward()
for inputs, labels in loader:
    model(**inputs).sum().backward()

# Moved to the GPU, then back to the CPU before the loop.
back = torch.nn.Linear(4, 1).cuda()
back.cpu()
for x, y in loader:
    torch.nn.functional.mse_loss(back(x), y).backward()
