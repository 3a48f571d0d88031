"""The project's loaders, built by a helper that returns them as a pair:
the solver keeps them on self and iterates them on the GPU (blind sample
S29E's ViT solver): the training loader lacks pin_memory."""
import torch
from torchvision import datasets, transforms


def get_loader(args):
    tf = transforms.Compose([transforms.RandomCrop(32, padding=4), transforms.ToTensor()])
    train = datasets.CIFAR10(args.data_path, train=True, download=True, transform=tf)
    test = datasets.CIFAR10(args.data_path, train=False, download=True, transform=transforms.ToTensor())
    train_loader = torch.utils.data.DataLoader(dataset=train, batch_size=args.batch_size, shuffle=True, num_workers=8, persistent_workers=True)  # want: LOAD002
    test_loader = torch.utils.data.DataLoader(dataset=test, batch_size=args.batch_size * 2, num_workers=8, pin_memory=True, persistent_workers=True)
    return train_loader, test_loader
