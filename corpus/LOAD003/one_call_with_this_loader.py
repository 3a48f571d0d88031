# gpuopt-env: target-gpu=h100
# get_scores runs in a loop for the noise loaders, but the test loader is
# handed to it once: its workers start once, and LOAD003 says nothing of
# it (blind sample S15D's outlier-exposure test.py).
import torch
import torchvision

model = torchvision.models.resnet18().cuda().eval()
test_data = torchvision.datasets.CIFAR10("data", train=False, transform=torchvision.transforms.ToTensor())
test_loader = torch.utils.data.DataLoader(test_data, batch_size=200, num_workers=4, pin_memory=True)


def get_scores(loader):
    out = []
    with torch.no_grad():
        for x, _ in loader:
            out.append(model(x.cuda(non_blocking=True)).softmax(1).max(1).values)
    return torch.cat(out)


in_scores = get_scores(test_loader)
for seed in range(5):
    noise = torch.utils.data.TensorDataset(torch.rand(2000, 3, 32, 32), torch.zeros(2000))
    scores = get_scores(torch.utils.data.DataLoader(noise, batch_size=200))
