# gpuopt-env: target-gpu=h100
# A torchvision ResNet trained under bf16 autocast, kept in NCHW.
import torch
import torchvision

model = torchvision.models.resnet50(weights=None).cuda()  # want: MEM006
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
criterion = torch.nn.CrossEntropyLoss()
loader = torch.utils.data.DataLoader(torchvision.datasets.FakeData(transform=torchvision.transforms.ToTensor()), batch_size=64)

for images, target in loader:
    images, target = images.cuda(), target.cuda()
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = criterion(model(images), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
