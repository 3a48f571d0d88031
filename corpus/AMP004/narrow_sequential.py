# gpuopt-env: target-gpu=h100
# Course notebooks build their networks in place: nn.Sequential of small
# linear layers, a 784-30-784 autoencoder, a transformer encoder of width 32.
# Autocast slows such steps on an H100 (0.72-0.87×, .notes/amp004-narrow-h100.txt):
# no finding.
import torch
import torch.nn as nn

D, H, C = 2, 100, 3
spiral = nn.Sequential(nn.Linear(D, H), nn.ReLU(), nn.Linear(H, C)).cuda()
opt = torch.optim.Adam(spiral.parameters(), lr=1e-3, fused=True)
X, y = torch.randn(3000, D, device="cuda"), torch.randint(0, C, (3000,), device="cuda")
for t in range(1000):
    y_pred = spiral(X)
    loss = nn.functional.cross_entropy(y_pred, y)
    opt.zero_grad()
    loss.backward()
    opt.step()

autoencoder = nn.Sequential(nn.Linear(28 * 28, 30), nn.Tanh(), nn.Linear(30, 28 * 28), nn.Tanh()).cuda()
opt = torch.optim.Adam(autoencoder.parameters(), lr=1e-3, fused=True)
for epoch in range(10):
    for img in torch.randn(100, 256, 28 * 28).cuda():
        output = autoencoder(img)
        loss = nn.functional.mse_loss(output, img)
        opt.zero_grad()
        loss.backward()
        opt.step()

layer = nn.TransformerEncoderLayer(d_model=32, nhead=2, dim_feedforward=128, batch_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=1).cuda()
opt = torch.optim.Adam(encoder.parameters(), lr=1e-3, fused=True)
for batch in torch.randn(100, 32, 64, 32).cuda():
    loss = encoder(batch).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

# 4096-wide layers: autocast pays, the wrap is offered.
wide = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 10)).cuda()
opt = torch.optim.Adam(wide.parameters(), lr=1e-3, fused=True)
for x in torch.randn(100, 512, 4096).cuda():
    loss = wide(x).logsumexp(1).mean()  # want: AMP004
    opt.zero_grad()
    loss.backward()
    opt.step()
