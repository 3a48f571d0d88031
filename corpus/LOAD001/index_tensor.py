# gpuopt-env: cpus=16
# A loader over a tensor of graph indices (a GNN over whole graphs): its
# items are numbers already in memory, which workers would only pickle.
import torch
from torch.utils.data import DataLoader

device = torch.device("cuda")
model = torch.nn.Linear(16, 2).to(device)
optimizer = torch.optim.Adam(model.parameters())
graphs = [torch.randn(n, 16) for n in (5, 9, 14)]
idx = torch.LongTensor(range(3))
loader = DataLoader(dataset=idx, batch_size=1, shuffle=True, num_workers=0)


def train():
    for step, batch in enumerate(loader):
        loss = model(graphs[batch[0]].to(device)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    for epoch in range(3):
        train()
