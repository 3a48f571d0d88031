# Text-based person search (blind sample S37X): one dataset class serves
# training pairs, image galleries and caption queries, chosen by
# constructor arguments. A query set's items are a caption's token ids
# and two integers, a few kilobytes a batch: pinning buys nothing there.
# The training and gallery loaders, whose items are decoded images, are
# still reported.
import numpy as np
import torch
import torch.nn as nn
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision import transforms


class Pedes(Dataset):
    def __init__(self, rows, max_length, is_train=False, query_or_db="query"):
        self.rows = rows
        self.max_length = max_length
        self.is_train = is_train
        self.query_or_db = query_or_db
        self.transform = transforms.Compose([transforms.Resize((256, 128)), transforms.ToTensor()])

    def __getitem__(self, index):
        if self.is_train:
            row = self.rows[index]
            image = self.transform(Image.open(row["path"]))
            return image, torch.LongTensor(row["tokens"][: self.max_length]), row["id"]
        if self.query_or_db == "query":
            row = self.rows[index]
            caption = np.zeros(self.max_length)
            for i, token in enumerate(row["tokens"][: self.max_length]):
                caption[i] = token
            return torch.LongTensor(caption), index, int(row["id"])
        elif self.query_or_db == "db":
            row = self.rows[index]
            return self.transform(Image.open(row["path"])), int(row["id"])

    def __len__(self):
        return len(self.rows)


class Matcher(nn.Module):
    def __init__(self):
        super().__init__()
        self.words = nn.Embedding(5000, 256)
        self.pixels = nn.Conv2d(3, 256, 16, 16)

    def forward(self, image=None, caption=None, pid=None):
        if image is None:
            return self.words(caption).mean(1)
        return self.pixels(image).flatten(2).mean(2)


class Features(Dataset):
    # Integer labels beside float features a helper method builds: not a
    # batch of token ids (the helper is read too).
    def __init__(self, feats, labels):
        self.feats, self.labels = feats, labels

    def frames(self, i):
        return torch.tensor(self.feats[i])

    def __getitem__(self, i):
        return self.frames(i), torch.LongTensor([self.labels[i]])

    def __len__(self):
        return len(self.labels)


def run(train_rows, test_rows, epochs):
    model = Matcher().cuda()
    optimizer = torch.optim.Adam(model.parameters(), fused=True)
    train_loader = DataLoader(Pedes(train_rows, 50, is_train=True), batch_size=32, num_workers=8)  # want: LOAD002
    query_loader = DataLoader(Pedes(test_rows, 50, query_or_db="query"), batch_size=32, num_workers=8)
    db_loader = DataLoader(Pedes(test_rows, 50, query_or_db="db"), batch_size=32, num_workers=8)  # want: LOAD002
    feature_loader = DataLoader(Features([], []), batch_size=32, num_workers=8)  # want: LOAD002
    for epoch in range(epochs):
        for image, caption, pid in train_loader:
            loss = (model(image=image.cuda()) - model(caption=caption.cuda())).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        texts, images = [], []
        with torch.no_grad():
            for caption, index, pid in query_loader:
                texts.append(model(caption=caption.cuda()))
            for image, pid in db_loader:
                images.append(model(image=image.cuda()))
        with torch.no_grad():
            for feats, labels in feature_loader:
                texts.append(model(caption=feats.cuda().long()))
        print(epoch, torch.cat(texts).shape, torch.cat(images).shape)
