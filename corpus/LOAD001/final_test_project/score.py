# A script whose only job is the evaluation: the pass is the run.
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, models, transforms


def score(net, dataset):
    loader = DataLoader(dataset, batch_size=128)  # want: LOAD001
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (net(x.cuda()).argmax(1) == y.cuda()).sum()
    return correct.item() / len(dataset)


if __name__ == "__main__":
    settings = {"batch_size": 128, "split": "test"}
    for key in settings:  # prints the settings: no training before the pass
        print(key, settings[key])
    net = models.resnet50().cuda().eval()
    print(score(net, datasets.ImageFolder("data/test", transform=transforms.ToTensor())))
