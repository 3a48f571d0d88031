# A contrastive memory bank: it reads its temperature and normalisation
# constants from a buffer with .item() at the top of every forward (a wait
# for the GPU per call), then sets the constant once, on the first call,
# inside `if z < 0:` (silent: later calls skip the branch). A flatten layer
# that takes the product of a shape built on the host waits for nothing.
import torch
import torch.nn as nn

device = torch.device("cuda")


class MemoryBank(nn.Module):
    def __init__(self, size, dim, temperature=0.07):
        super().__init__()
        self.register_buffer("params", torch.tensor([temperature, -1.0]))
        self.register_buffer("memory", torch.randn(size, dim))

    def forward(self, v, idx):
        t = self.params[0].item()  # want: SYNC006
        z = self.params[1].item()  # want: SYNC006
        out = torch.exp(self.memory[idx] @ v.unsqueeze(-1) / t)
        if z < 0:
            self.params[1] = out.mean() * self.memory.shape[0]
            z = self.params[1].clone().item()
            print("normalisation constant set to", z)
        return out / z


class Flatten(nn.Module):
    def forward(self, x):
        width = torch.prod(torch.tensor(x.shape[1:])).item()
        return x.view(-1, width)


bank = MemoryBank(4096, 128).to(device)
flat = Flatten()
for step in range(100):
    v = torch.randn(64, 128, device=device)
    loss = bank(flat(v.view(64, 2, 64)), torch.randint(4096, (64, 16), device=device)).mean()
    loss.backward()
