# gpuopt-env: target-gpu=h100
# A loader of one CIFAR image a batch (an out-of-distribution score that
# runs a forward, a backward on the input and a forward per image): one
# item costs tens of microseconds on the host against milliseconds of GPU
# work, so workers and pinned memory hide nothing. Silent for LOAD001 and
# LOAD002. The same loader at batch 128 is reported.
import torch
import torchvision
import torchvision.transforms as transforms

transform = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5, 0.5, 0.5), (0.25, 0.25, 0.25))])


def scores(net, loader, eps=0.0014):
    out = []
    for images, _ in loader:
        x = images.cuda().requires_grad_(True)
        logits = net(x)
        loss = torch.nn.functional.cross_entropy(logits, logits.argmax(1))
        loss.backward()
        x2 = x - eps * torch.sign(-x.grad)
        out.append(torch.softmax(net(x2), 1).max(1).values)
    return out


def main():
    net = torch.load("densenet10.pth").cuda()
    testset = torchvision.datasets.CIFAR10(root="../data", train=False, download=True, transform=transform)
    one_by_one = torch.utils.data.DataLoader(testset, batch_size=1, shuffle=False)
    batched = torch.utils.data.DataLoader(testset, batch_size=128, shuffle=False)  # want: LOAD001
    for epoch in range(3):
        scores(net, one_by_one)
        scores(net, batched)


if __name__ == "__main__":
    main()
