# A collate_fn that returns a batch object: its .to() takes no non_blocking.
import torch
from torch.utils.data import DataLoader


class Batch:
    def __init__(self, x):
        self.x = x

    def to(self, device):
        return Batch(self.x.to(device))


data = [torch.randn(4) for _ in range(32)]
loader = DataLoader(data, batch_size=8, collate_fn=lambda items: Batch(torch.stack(items)), pin_memory=True)
model = torch.nn.Linear(4, 2).cuda()
for batch in loader:
    batch = batch.to("cuda")
    loss = model(batch.x).sum()
    loss.backward()
