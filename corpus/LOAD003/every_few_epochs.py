# The test loader is read every 20 epochs (`epoch % test_interval`): its
# workers start every 20 epochs, and persistent ones would sit idle in
# between. No finding there; the training loader, read every epoch, keeps
# it.
import torch
import torchvision.datasets as dset
import torchvision.transforms as transforms

test_interval = 20
train_set = dset.FakeData(size=1000, image_size=(3, 64, 64), transform=transforms.ToTensor())
test_set = dset.FakeData(size=200, image_size=(3, 64, 64), transform=transforms.ToTensor())
train_loader = torch.utils.data.DataLoader(train_set, batch_size=128, shuffle=True, num_workers=4, pin_memory=True)  # want: LOAD003
test_loader = torch.utils.data.DataLoader(test_set, batch_size=128, num_workers=4, pin_memory=True)

net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 64 * 64, 10)).cuda()
optimizer = torch.optim.Adam(net.parameters(), fused=True)
for epoch in range(100):
    for x, y in train_loader:
        loss = torch.nn.functional.cross_entropy(net(x.cuda(non_blocking=True)), y.cuda(non_blocking=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if epoch % test_interval == test_interval - 1:
        with torch.no_grad():
            for x, y in test_loader:
                net(x.cuda(non_blocking=True))
