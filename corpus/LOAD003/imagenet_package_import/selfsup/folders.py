import torchvision.datasets as datasets


class IndexedImageFolder(datasets.ImageFolder):
    """An image folder that also returns each sample's index."""

    def __getitem__(self, index):
        image, target = super().__getitem__(index)
        return image, target, index
