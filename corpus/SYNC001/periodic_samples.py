# A sample grid drawn every 100 training steps: its loop's .cpu() calls
# run ten at a time once per 100 steps, not per step (blind sample S16E's
# StyleGAN). An evaluation every 10 steps is a large share of the run,
# and is reported.
import time
import torch
import torch.nn as nn

G = nn.Sequential(nn.Linear(512, 4096), nn.ReLU(), nn.Linear(4096, 3 * 64 * 64)).cuda()
opt = torch.optim.Adam(G.parameters(), lr=1e-4)
for i in range(100000):
    loss = G(torch.randn(64, 512, device="cuda")).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if (i + 1) % 100 == 0:
        images = []
        with torch.no_grad():
            for _ in range(10):
                images.append(G(torch.randn(5, 512, device="cuda")).cpu())
    if i % 10 == 0:
        scores = []
        with torch.no_grad():
            for x in val_loader:
                t_step = time.perf_counter()  # host work each step (timing, logging)
                scores.append(G(x.cuda()).cpu())  # want: SYNC001
