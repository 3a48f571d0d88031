# gpuopt-env: torch=2.4
# An auto-decoder: the decoder is on CUDA, the per-shape latent codes are an
# nn.Embedding kept on the CPU (looked up there, then copied). fused=True
# over both groups raises before torch 2.4 and is not the CUDA update the
# finding describes: silent. The optimizer over the decoder alone is
# reported.
import torch
import torch.nn as nn

decoder = nn.Sequential(nn.Linear(259, 512), nn.ReLU(), nn.Linear(512, 1)).cuda()
lat_vecs = nn.Embedding(5000, 256, max_norm=1.0)
optimizer_all = torch.optim.Adam(
    [
        {"params": decoder.parameters(), "lr": 5e-4},
        {"params": lat_vecs.parameters(), "lr": 1e-3},
    ]
)
optimizer_decoder = torch.optim.Adam(decoder.parameters(), lr=5e-4)  # want: OPT001

for epoch in range(2000):
    for step in range(100):
        idx = torch.randint(0, 5000, (16384,))
        xyz = torch.randn(16384, 3)
        inputs = torch.cat([lat_vecs(idx), xyz], dim=1).cuda()
        loss = decoder(inputs).abs().mean()
        optimizer_all.zero_grad()
        optimizer_decoder.zero_grad()
        loss.backward()
        optimizer_all.step()
        optimizer_decoder.step()
