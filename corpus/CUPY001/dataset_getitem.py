# gpuopt-env: target-gpu=h100
# A dataset builds an empty 1024×1024 mask in __getitem__ for images
# without one and hands it to a CPU augmentation library: the code runs
# in the DataLoader's worker processes, where CUDA does not belong, and
# the batch reaches the GPU after collation. CUPY001 stays silent (blind
# sample S15A).
import cv2
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class MaskDataset(Dataset):
    def __init__(self, images, masks, has_mask, transform):
        self.images, self.masks, self.has_mask = images, masks, has_mask
        self.transform = transform

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        image = cv2.imread(self.images[index], 1)
        if self.has_mask[index] == 0:
            label = np.zeros((1024, 1024))
        else:
            label = cv2.imread(self.masks[index], 0)
        sample = self.transform(image=image, mask=label)
        return torch.from_numpy(sample["image"]), torch.from_numpy(sample["mask"])


def loader(images, masks, has_mask, transform):
    return DataLoader(MaskDataset(images, masks, has_mask, transform), batch_size=8, num_workers=8, pin_memory=True)
