# Workers started by spawn or forkserver unpickle collate_fn: a nested
# function or a lambda cannot be, so the finding comes without a fix.
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    """Decodes an image per sample: real work for workers."""

    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        img = torch.tensor(list(Image.open(self.paths[i]).getdata()), dtype=torch.float32)
        return img[:4], img[4:5]


ds = Images([f"{i}.png" for i in range(64)])


def run():
    def collate_fn(rows):
        return torch.stack([r[0] for r in rows]), torch.stack([r[1] for r in rows])

    model = torch.nn.Linear(4, 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(ds, batch_size=8, collate_fn=collate_fn)  # want: LOAD001
    other = DataLoader(ds, batch_size=8, worker_init_fn=lambda i: None)  # want: LOAD001
    for x, y in loader:
        loss = (model(x.cuda()) - y.cuda()).pow(2).mean()
        loss.backward()
        opt.step()
    for x, y in other:
        loss = (model(x.cuda()) - y.cuda()).pow(2).mean()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    run()
