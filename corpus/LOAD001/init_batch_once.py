# A data-dependent initialisation reads one batch from its own loader and
# breaks: the loop runs once, so its loader's workers would only slow the
# start (blind sample S18D's Glow). The training loader keeps the finding,
# and a loop that may skip batches (`continue`) before its break is still
# a loop.
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

tf = transforms.Compose([transforms.ToTensor()])
model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3072, 10)).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)

init_loader = DataLoader(datasets.CIFAR10("data", train=True, transform=tf), batch_size=512, shuffle=True, num_workers=1)
with torch.no_grad():
    for img, _ in init_loader:
        model(img.cuda())
        break

probe_loader = DataLoader(datasets.CIFAR10("data", train=False, transform=tf), batch_size=512, num_workers=1)  # want: LOAD001
with torch.no_grad():
    for img, label in probe_loader:
        if label.sum() == 0:
            continue
        model(img.cuda())
        break

train_loader = DataLoader(datasets.CIFAR10("data", train=True, transform=tf), batch_size=128, shuffle=True)  # want: LOAD001
for epoch in range(10):
    for img, label in train_loader:
        loss = torch.nn.functional.cross_entropy(model(img.cuda()), label.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
