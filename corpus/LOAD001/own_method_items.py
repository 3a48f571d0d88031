# A text dataset whose __getitem__ pads the caption through a method of
# its own (blind sample S37X's LGUR): the items are token ids already in
# memory, so worker processes would only add start-up and pickling.
# Its image dataset, which decodes files, is still reported.
import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset


class CaptionSet(Dataset):
    def __init__(self, codes, labels, max_length):
        self.codes = codes
        self.labels = labels
        self.max_length = max_length

    def __getitem__(self, index):
        label = torch.from_numpy(np.array([self.labels[index]])).long()
        caption, length, mask = self.caption_mask(self.codes[index])
        return label, caption, length, mask

    def caption_mask(self, caption):
        length = len(caption)
        caption = torch.from_numpy(np.array(caption)).view(-1).long()
        if length < self.max_length:
            caption = torch.cat([caption, torch.zeros(self.max_length - length).long()], 0)
        mask = np.where(caption != 0, 1, 0)
        return caption, length, mask

    def __len__(self):
        return len(self.codes)


class ImageSet(Dataset):
    def __init__(self, paths, transform):
        self.paths = paths
        self.transform = transform

    def __getitem__(self, index):
        return self.transform(Image.open(self.paths[index]))

    def __len__(self):
        return len(self.paths)


def train(model, optimizer, codes, labels, paths, transform, epochs):
    text_loader = DataLoader(CaptionSet(codes, labels, 64), batch_size=64, shuffle=True)
    image_loader = DataLoader(ImageSet(paths, transform), batch_size=64, shuffle=True)  # want: LOAD001
    for epoch in range(epochs):
        for (label, caption, length, mask), image in zip(text_loader, image_loader):
            loss = model(caption.cuda(), image.cuda(), label.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
