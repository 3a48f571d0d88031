import numpy as np
import torch
from PIL import Image
from torch.utils.data import Dataset


class LeafDataset(Dataset):
    """Each sample is moved to the GPU in __getitem__: forked workers cannot
    initialise CUDA again, and pin_memory cannot pin device tensors."""

    def __init__(self, paths, labels, transform=None):
        self.paths, self.labels, self.transform = paths, labels, transform

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, idx):
        image = Image.open(self.paths[idx]).convert("RGB")
        if self.transform:
            image = self.transform(image)
        image = torch.as_tensor(np.array(image), dtype=torch.float32).cuda()
        label = torch.tensor(self.labels[idx]).to("cuda")
        return image, label
