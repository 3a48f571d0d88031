# The test loader is read by test(), which the epoch loop calls only every
# 25 epochs: its workers start every 25 epochs, where persistent ones
# would sit idle in between, and an evaluation that rare is a small share
# of the run, so neither LOAD003 nor LOAD002 reports it (blind sample
# S18D's DCL). The training loader, read every epoch, keeps both.
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

tf = transforms.ToTensor()
model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3072, 10)).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
train_loader = DataLoader(datasets.CIFAR10("data", train=True, transform=tf), batch_size=256, shuffle=True, num_workers=8)  # want: LOAD003
test_loader = DataLoader(datasets.CIFAR10("data", train=False, transform=tf), batch_size=256, num_workers=8)


def test(net, loader):
    net.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (net(x.cuda()).argmax(1) == y.cuda()).sum()
    return correct


for epoch in range(500):
    model.train()
    for x, y in train_loader:
        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if epoch % 25 == 0:
        print(test(model, test_loader))
