# Batches as dicts of tensors, copied item by item.
import torch
from torch.utils.data import DataLoader


def train(model, dataset, optimizer):
    loader = DataLoader(dataset, batch_size=32, shuffle=True, pin_memory=True, num_workers=4)
    for step, data in enumerate(loader):
        images = data["image"].cuda()  # want: XFER002
        targets = data["target"].float().cuda()  # want: XFER002
        loss = torch.nn.functional.binary_cross_entropy_with_logits(model(images), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_reads_again(model, dataset, optimizer):
    loader = DataLoader(dataset, batch_size=32, pin_memory=True, num_workers=4)
    for data in loader:
        # The same item is read again after the copy: left alone.
        images = data["image"].cuda()
        print(data["image"].shape)
        # A computed key: not an item gpuopt can follow.
        extra = data[step_key(data)].cuda()
        model(images, extra).sum().backward()
        optimizer.step()


def step_key(data):
    return "extra"


def train_named_items(model, dataset, optimizer, device):
    # Items named first, then copied (milesial/Pytorch-UNet's loop).
    loader = DataLoader(dataset, batch_size=8, shuffle=True, num_workers=8, pin_memory=True)
    for batch in loader:
        images, masks = batch["image"], batch["mask"]
        images = images.to(device=device, dtype=torch.float32)  # want: XFER002
        masks = masks.to(device=device, dtype=torch.long)  # want: XFER002
        loss = torch.nn.functional.cross_entropy(model(images), masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    for batch in loader:
        x, y = batch
        x = x.cuda()  # want: XFER002
        # y is assigned twice from the batch: left alone.
        y = batch[1]
        y = y.cuda()
        model(x).sum().backward()
