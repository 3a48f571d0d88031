# gpuopt-env: target-gpu=h100
# A notebook turned script (blind sample S17C): a demo batch of 32 drawn
# once to print shapes, then the training batch of 64 for the loader the
# loop runs. Only the training batch is reported.
import torch
import torch.nn as nn
import torchvision
from torch.utils.data import DataLoader

device = torch.device("cuda")
mnist = torchvision.datasets.MNIST(root="./", train=True, transform=torchvision.transforms.ToTensor())

batch_size = 32
demo_loader = DataLoader(mnist, batch_size, shuffle=False)
images, labels = next(iter(demo_loader))
print(images.view(batch_size, -1).shape)

batch_size = 64  # want: MEM005
train_loader = DataLoader(mnist, batch_size=batch_size, shuffle=True, drop_last=True, num_workers=4, pin_memory=True, persistent_workers=True)
model = nn.Sequential(nn.Flatten(), nn.Linear(784, 4096), nn.ReLU(), nn.Linear(4096, 10)).to(device)
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for epoch in range(10):
    for x, y in train_loader:
        loss = nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
