# gpuopt-env: target-gpu=h100
# A VAE whose loss helper computes F.binary_cross_entropy on sigmoid outputs:
# autocast raises on it (RuntimeError), in the training step and in the
# evaluation loop that calls the helper after the forward. No wrap; the
# message says to switch to BCEWithLogitsLoss first. The evaluation loop
# joins the training step's finding, which names its line.
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, d=4096):
        super().__init__()
        self.enc = nn.Linear(784, d)
        self.dec = nn.Linear(d, 784)

    def forward(self, x):
        return torch.sigmoid(self.dec(F.relu(self.enc(x)))), None, None


def loss_function(x_hat, x, mu, logvar):
    return F.binary_cross_entropy(x_hat, x.view(-1, 784), reduction="sum")


model = VAE().cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
train_loader = torch.utils.data.DataLoader(torch.rand(512, 784), batch_size=4096)
for epoch in range(10):
    for x in train_loader:
        x = x.cuda()
        x_hat, mu, logvar = model(x)  # want: AMP004
        loss = loss_function(x_hat, x, mu, logvar)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        model.eval()
        test_loss = 0
        for x in train_loader:
            x = x.cuda()
            x_hat, mu, logvar = model(x)
            test_loss += loss_function(x_hat, x, mu, logvar).item()
