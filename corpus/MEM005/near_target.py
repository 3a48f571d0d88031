# gpuopt-env: target-gpu=h100
# A batch of 500, a paper's setting, against the table's 512 for an 80 GB
# card: raising it by 2% is not advice worth giving. Silent.
import torch
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(64, 8).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(4096, 64), torch.randint(0, 8, (4096,))), batch_size=500)
for epoch in range(3):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
