# A convolutional speech model fed by a collate function (of a sibling
# module, through functools.partial) that pads each batch to its longest
# utterance: the shapes change nearly every batch, and cudnn.benchmark
# would time new algorithms for each. No OPT003. (Fixed shapes keep the
# hint: resnet.py.)
from functools import partial

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from dataset import collate_utterances

model = nn.Sequential(nn.Conv1d(80, 256, 5, padding=2), nn.ReLU(), nn.Conv1d(256, 80, 5, padding=2)).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)


def train(dataset):
    collate_fn = partial(collate_utterances, reduction=2)
    loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True, collate_fn=collate_fn)
    for epoch in range(100):
        for mels in loader:
            mels = mels.cuda(non_blocking=True)
            loss = (model(mels) - mels).abs().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
