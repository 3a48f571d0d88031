# gpuopt-env: target-gpu=h100
import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
encoder = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU()).to(device)
decoder = nn.Linear(4096, 10).to(device)
criterion = nn.CrossEntropyLoss().to(device)
params = list(encoder.parameters()) + list(decoder.parameters())
optimizer = torch.optim.Adam(params)
data = [(torch.randn(32, 64), torch.randint(0, 10, (32,))) for _ in range(8)]

for x, y in data:
    x, y = x.to(device), y.to(device)
    loss = criterion(decoder(encoder(x)), y)  # want: AMP004
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

def evaluate():
    encoder.eval()
    decoder.eval()
    total = []
    with torch.no_grad():
        for x, y in data:
            x, y = x.to(device), y.to(device)
            # Two models and a loss a few lines later: one evaluation step, one
            # finding, one autocast block (the loss is not a forward pass).
            if encoder is not None:
                x = encoder(x)  # joins the step's hint: its fix wraps this loop too
            scores = decoder(x)
            targets = y.long()
            loss = criterion(scores, targets)
            total.append(loss)
    return total


for fold in range(5):
    evaluate()
