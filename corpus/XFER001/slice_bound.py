# A random time step drawn as a tensor and used as a slice bound (blind
# sample S33BL's TS-TCC and CL-HAR: `t = torch.randint(...).to(device)`
# then `z[:, :t + 1, :]`): the host must read the bound, so the tensor
# comes back whatever device builds it, and building it there only
# changes the random stream. Silent. A random offset used on the device
# (added to a tensor) is reported.
import torch
import torch.nn as nn


class TemporalContrast(nn.Module):
    def __init__(self, channels=128, timestep=6, device="cuda"):
        super().__init__()
        self.timestep = timestep
        self.device = device
        self.proj = nn.Linear(channels, channels)

    def forward(self, z):
        seq_len = z.shape[1]
        t = torch.randint(seq_len - self.timestep, size=(1,)).long().to(self.device)
        context = z[:, :t + 1, :]
        noise = torch.randn(z.shape[0], z.shape[2]).to(self.device)  # want: XFER001
        return self.proj(context.mean(1) + noise)


model = TemporalContrast().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for step in range(1000):
    z = torch.randn(64, 128, 128, device="cuda")
    loss = model(z).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
