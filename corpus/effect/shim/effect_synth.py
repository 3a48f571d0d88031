"""Synthetic stand-ins for torchvision's downloadable image data sets, used
by the effect harness where the GPU machine cannot download them.

Each keeps the real set's size, image shape and dtype (uint8, decoded to a
PIL image in __getitem__ like the real classes, so the transforms and the
per-sample CPU cost stay), and its labels are learnable: every image is its
class's fixed random prototype plus noise.
"""

import numpy as np
from PIL import Image
import torch

# name: (train size, test size, image shape, classes)
SHAPES = {
    "MNIST": (60000, 10000, (28, 28), 10),
    "FashionMNIST": (60000, 10000, (28, 28), 10),
    "CIFAR10": (50000, 10000, (32, 32, 3), 10),
    "CIFAR100": (50000, 10000, (32, 32, 3), 100),
}


def make(name):
    n_train, n_test, shape, n_classes = SHAPES[name]

    class Synthetic(torch.utils.data.Dataset):
        def __init__(self, root=None, train=True, transform=None, target_transform=None, download=False, **kwargs):
            n = n_train if train else n_test
            rng = np.random.default_rng(1 if train else 2)
            protos = np.random.default_rng(0).integers(0, 256, (n_classes,) + shape, dtype=np.uint8)
            self.targets = rng.integers(0, n_classes, n)
            noise = rng.integers(0, 256, (n,) + shape, dtype=np.uint8)
            self.data = (protos[self.targets] // 2 + noise // 2).astype(np.uint8)
            self.transform, self.target_transform = transform, target_transform
            self.classes = [str(i) for i in range(n_classes)]
            self.train = train
            self.root = root

        def __len__(self):
            return len(self.data)

        def __getitem__(self, i):
            img = Image.fromarray(self.data[i], mode="L" if len(shape) == 2 else "RGB")
            target = int(self.targets[i])
            if self.transform is not None:
                img = self.transform(img)
            if self.target_transform is not None:
                target = self.target_transform(target)
            return img, target

    Synthetic.__name__ = Synthetic.__qualname__ = name
    return Synthetic


def install(datasets_module):
    for name in SHAPES:
        setattr(datasets_module, name, make(name))
