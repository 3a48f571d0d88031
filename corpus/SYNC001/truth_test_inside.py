# A sampling loop whose activation helper retries a Gumbel softmax until
# it has no NaN (`if not torch.isnan(t).any():`, two calls deep: blind
# sample S29H's CTGAN): the step already waits for the GPU there, so
# appending the device tensor and copying once saves nothing. Silent. A
# loop without such a test keeps its finding.
import numpy as np
import torch
import torch.nn.functional as F


class Synthesizer:
    def __init__(self, batch_size=500, dim=128):
        self.generator = torch.nn.Sequential(torch.nn.Linear(dim, 256), torch.nn.ReLU(), torch.nn.Linear(256, 33)).cuda()
        self.batch_size, self.dim = batch_size, dim

    def _gumbel(self, logits):
        for _ in range(10):
            out = F.gumbel_softmax(logits, tau=0.2)
            if not torch.isnan(out).any():
                return out
        raise ValueError("gumbel_softmax returning NaN")

    def _activate(self, data):
        return torch.cat([torch.tanh(data[:, :1]), self._gumbel(data[:, 1:])], dim=1)

    def sample(self, n):
        data = []
        for i in range(n // self.batch_size + 1):
            z = torch.randn(self.batch_size, self.dim, device="cuda")
            data.append(self._activate(self.generator(z)).detach().cpu().numpy())
        return np.concatenate(data)[:n]

    def sample_raw(self, n):
        data = []
        for i in range(n // self.batch_size + 1):
            z = torch.randn(self.batch_size, self.dim, device="cuda")
            data.append(self.generator(z).detach().cpu().numpy())  # want: SYNC001
        return np.concatenate(data)[:n]
