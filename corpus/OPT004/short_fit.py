# A demo fits one image in 250 steps (tqdm(range(iters)), iters handed in
# by the caller): a run of seconds, shorter than tracing the model takes.
# No OPT004 for that fit (blind sample S31H). The same network trained
# for 20,000 steps is reported.
import torch
import torch.nn as nn
from tqdm import tqdm


def fit(iters, coords, target):
    model = nn.Sequential(nn.Linear(256, 4096), nn.GELU(), nn.Linear(4096, 4096), nn.GELU(), nn.Linear(4096, 3)).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    for i in tqdm(range(iters)):
        loss = (model(coords) - target).square().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model


def long_fit(coords, target):
    net = nn.Sequential(nn.Linear(256, 4096), nn.GELU(), nn.Linear(4096, 4096), nn.GELU(), nn.Linear(4096, 3)).cuda()  # want: OPT004
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3, fused=True)
    for i in range(20000):
        loss = (net(coords) - target).square().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return net


if __name__ == "__main__":
    iters = 250
    xy = torch.rand(65536, 256, device="cuda")
    rgb = torch.rand(65536, 3, device="cuda")
    fit(iters, xy, rgb)
    long_fit(xy, rgb)
