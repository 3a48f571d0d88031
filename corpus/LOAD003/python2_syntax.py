# A Python 2 script (print statements): PyTorch 1.4 was the last release to
# run it, so persistent_workers (1.7) cannot be passed until it is ported.
# Silent; the print statement is reported as a syntax error.
import torch
import torchvision
from torchvision import datasets, transforms

model = torchvision.models.resnet18(num_classes=10).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_set = datasets.CIFAR10("data", train=True, transform=transforms.ToTensor())
loader = torch.utils.data.DataLoader(train_set, batch_size=128, shuffle=True, num_workers=4, pin_memory=True)
print model

for epoch in range(30):
    for images, labels in loader:
        loss = torch.nn.functional.cross_entropy(model(images.cuda()), labels.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print 'epoch', epoch, loss.item()
