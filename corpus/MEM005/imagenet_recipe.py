# gpuopt-env: target-gpu=h100
# 224-px images at batch 256, the ImageNet recipe: half the table's 512
# with images this large is a busy step, not a default left low. The
# 32-px loader beside it at 64 is reported.
import torch
import torchvision
from torchvision import transforms

train_tf = transforms.Compose([transforms.RandomResizedCrop(224), transforms.ToTensor()])
train_set = torchvision.datasets.ImageFolder("train", train_tf)
loader = torch.utils.data.DataLoader(train_set, batch_size=256, shuffle=True, num_workers=8)
small = torch.utils.data.DataLoader(torchvision.datasets.CIFAR10("data", transform=transforms.ToTensor()), batch_size=64, shuffle=True, num_workers=8)  # want: MEM005
model = torchvision.models.resnet50().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(90):
    for images, target in loader:
        loss = torch.nn.functional.cross_entropy(model(images.cuda()), target.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    for images, target in small:
        loss = torch.nn.functional.cross_entropy(model(images.cuda()), target.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
