# An image encoder with a caption decoder: the collate function pads the
# captions but stacks images of one size, so the convolutions see fixed
# shapes and OPT003 keeps its hint.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from dataset import collate_captions

encoder = nn.Sequential(nn.Conv2d(3, 64, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten()).cuda()
decoder = nn.LSTM(64, 64, batch_first=True).cuda()
optimizer = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()), lr=1e-3, fused=True)


def train(dataset):
    loader = DataLoader(dataset, batch_size=128, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True, collate_fn=collate_captions)
    for epoch in range(5):  # want: OPT003
        for images, targets, lengths in loader:
            features = encoder(images.cuda(non_blocking=True))
            out, _ = decoder(features.unsqueeze(1).expand(-1, targets.size(1), -1))
            loss = out.pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
