"""An evaluation script: main() scores the test set once and writes each
prediction to disk. Pinning saves part of each batch's copy, a small share
of a pass that runs once and spends its time on the writes: no finding
(blind sample S14B judged it false). A loader the training loop reads
every epoch is still reported."""
import argparse

import cv2
import torch
from torch.utils.data import DataLoader

from dataset import SegmentationDataset
from model import UNet


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    model = UNet().cuda()
    model.load_state_dict(torch.load("best.pth"))
    model.eval()
    loader = DataLoader(SegmentationDataset("test"), batch_size=8, shuffle=False, num_workers=args.workers)
    with torch.no_grad():
        for images, names in loader:
            masks = torch.sigmoid(model(images.cuda())).cpu().numpy()
            for mask, name in zip(masks, names):
                cv2.imwrite(name + ".png", (mask[0] * 255).astype("uint8"))


def train():
    model = UNet().cuda()
    opt = torch.optim.Adam(model.parameters())
    loader = DataLoader(SegmentationDataset("train"), batch_size=8, shuffle=True, num_workers=4)  # want: LOAD002
    for epoch in range(100):
        for images, masks in loader:
            loss = torch.nn.functional.binary_cross_entropy_with_logits(model(images.cuda()), masks.cuda())
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main()
