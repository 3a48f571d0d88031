import pandas as pd
import torch
from PIL import Image
from torch.utils.data import Dataset


class StyleImages(Dataset):
    # Filled by __init__ in the process that builds the dataset: a class
    # attribute, which pickling an instance leaves behind.
    labels = []

    def __init__(self, table, transform=None):
        self.rows = pd.read_csv(table)
        self.transform = transform
        for style in sorted(self.rows["style"].unique()):
            StyleImages.labels.append(style)

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        row = self.rows.iloc[i]
        image = Image.open(row["path"]).convert("RGB")
        if self.transform:
            image = self.transform(image)
        return image, torch.tensor(StyleImages.labels.index(row["style"]))
