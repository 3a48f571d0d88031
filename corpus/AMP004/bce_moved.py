# gpuopt-env: target-gpu=h100
# nn.BCELoss built in one notebook cell and moved in another
# (criterion = criterion.to(device)): still BCELoss, which autocast refuses.
# The finding says so and offers no wrap.
import torch
import torch.nn as nn

device = torch.device("cuda")
net = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 1), nn.Sigmoid())
criterion = nn.BCELoss()
net = net.to(device)
criterion = criterion.to(device)
optimizer = torch.optim.Adam(net.parameters(), lr=0.001, fused=True)
X_train, y_train = torch.randn(256, 4096, device=device), torch.rand(256, device=device)
for epoch in range(1000):
    y_pred = net(X_train)  # want: AMP004
    y_pred = torch.squeeze(y_pred)
    train_loss = criterion(y_pred, y_train)
    optimizer.zero_grad()
    train_loss.backward()
    optimizer.step()
