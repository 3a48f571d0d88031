# A handwritten-formula recogniser (blind sample S38S's CAN) trained on
# the loaders its data module returns: they pad each batch to its own
# largest image, so the convolutions see a new shape nearly every batch.
# Neither cudnn.benchmark (OPT003) nor torch.compile (OPT004) is advised.
import torch
import torch.nn as nn

from dataset import get_dataset

model = nn.Sequential(nn.Conv2d(1, 256, 3, padding=1), nn.ReLU(), nn.Conv2d(256, 256, 3, padding=1), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(256, 111)).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
train_loader, eval_loader = get_dataset({"batch_size": 8, "collate_fn": "collate_fn"}, [], [])
for epoch in range(200):
    for images, labels in train_loader:
        images, labels = images.cuda(non_blocking=True), labels.cuda(non_blocking=True)
        loss = nn.functional.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
