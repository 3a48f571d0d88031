"""The project's evaluation module switches cuDNN off when it is imported
(a CTC workaround), for every script that imports it."""
import torch

torch.backends.cudnn.enabled = False


def accuracy(model, loader):
    model.eval()
    right = total = 0
    with torch.no_grad():
        for images, labels in loader:
            right += (model(images.cuda()).argmax(1).cpu() == labels).sum().item()
            total += len(labels)
    return right / total
