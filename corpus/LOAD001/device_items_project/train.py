# Worker processes cannot touch CUDA and pin_memory refuses device tensors:
# no workers advice for MAESTRO, whose inherited __getitem__ moves its
# items; the spectra loader, whose items stay on the host, keeps it (also
# iterated through itertools.cycle).
from itertools import cycle

import torch

from dataset import MAESTRO, LongSpectra


class Transcriber(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(16000, 768), torch.nn.ReLU(), torch.nn.Linear(768, 88))

    def run_on_batch(self, batch):
        return torch.nn.functional.binary_cross_entropy_with_logits(self.net(batch["audio"]), batch["label"])


model = Transcriber().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
loader = torch.utils.data.DataLoader(MAESTRO(), batch_size=8, shuffle=True, drop_last=True)
spectra = torch.utils.data.DataLoader(LongSpectra([f"s{i}.pt" for i in range(9)]), batch_size=8, shuffle=True)  # want: LOAD001
for i, batch in zip(range(100000), cycle(loader)):
    loss = model.run_on_batch(batch)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
for _, batch in zip(range(5000), cycle(spectra)):
    loss = model.run_on_batch({k: v.cuda() for k, v in batch.items()})
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
