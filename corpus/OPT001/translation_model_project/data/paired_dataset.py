import numpy as np
import torch
from PIL import Image


class PairedDataset(torch.utils.data.Dataset):
    def __init__(self, opt):
        self.paths = sorted(opt.paths)

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        ab = np.asarray(Image.open(self.paths[index]).convert("RGB"), dtype=np.float32) / 127.5 - 1
        w = ab.shape[1] // 2
        a = torch.from_numpy(ab[:, :w]).permute(2, 0, 1)
        b = torch.from_numpy(ab[:, w:]).permute(2, 0, 1)
        return {"A": a, "B": b}
