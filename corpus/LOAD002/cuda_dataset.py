# A dataset whose __init__ moves its tensors to the GPU: pin_memory=True
# would raise "cannot pin 'torch.cuda.FloatTensor'" at the first batch
# (blind sample S18Q's TabNet, where this safe fix broke training), and
# workers cannot use CUDA either, so neither LOAD002 nor LOAD001 reports
# it. The host-side dataset keeps its findings.
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class GPUTable(Dataset):
    def __init__(self, x, y, device):
        self.device = device
        self.x = torch.from_numpy(x).float().to(self.device)
        self.y = torch.from_numpy(y).long().to(self.device)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class HostTable(Dataset):
    def __init__(self, x, y):
        self.x = torch.from_numpy(x).float()
        self.y = torch.from_numpy(y).long()

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


device = torch.device("cuda")
x, y = np.random.rand(100000, 64), np.random.randint(0, 2, 100000)
model = torch.nn.Sequential(torch.nn.Linear(64, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 2)).to(device)
optimizer = torch.optim.Adam(model.parameters(), fused=True)
gpu_loader = DataLoader(GPUTable(x, y, device), batch_size=4096, shuffle=True, num_workers=4)
host_loader = DataLoader(HostTable(x, y), batch_size=4096, shuffle=True, num_workers=4)  # want: LOAD002
for epoch in range(10):
    for xb, yb in gpu_loader:
        loss = torch.nn.functional.cross_entropy(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    for xb, yb in host_loader:
        loss = torch.nn.functional.cross_entropy(model(xb.to(device)), yb.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
