import torch
import torchvision

# Switched off on purpose everywhere (no branch): respect it.
torch.backends.cudnn.benchmark = False
model = torchvision.models.resnet18().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = [(torch.randn(8, 3, 224, 224), torch.randint(0, 1000, (8,)))]

for x, y in loader:
    loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
    loss.backward()
    optimizer.step()
