# The device is a module constant set to "cpu", and the model moves only
# under `if DEVICE == "cuda":`: the script trains on the host as written,
# though it names CUDA. The batches' `.to(DEVICE)` places them on the CPU.
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, models, transforms

DEVICE = "cpu"

train_set = datasets.ImageFolder("doodles/train", transform=transforms.ToTensor())
loader = DataLoader(train_set, batch_size=256, shuffle=True)
model = models.mobilenet_v2(num_classes=340)
if DEVICE == "cuda":
    model.to(DEVICE)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(10):
    total = 0.0
    for x, y in loader:  # want: DEV001
        x, y = x.to(DEVICE), y.to(DEVICE)
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, total / len(loader))
