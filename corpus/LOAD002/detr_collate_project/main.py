# A relation-detection trainer on the DETR recipe (blind sample S23H's
# RelTR): its loader's collate_fn wraps the images in a NestedTensor, which
# has no pin_memory method, so the DataLoader hands it back unpinned and
# pin_memory=True would pin the small targets alone: LOAD002 stays silent.
# The loader with the default collate keeps the finding.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

import misc as utils

dataset = TensorDataset(torch.randn(4096, 3, 64, 64), torch.randint(0, 10, (4096,)))
detr_loader = DataLoader(dataset, batch_size=8, shuffle=True, collate_fn=utils.collate_fn, num_workers=4)
grounding_loader = DataLoader(dataset, batch_size=8, shuffle=True, collate_fn=utils.grounding_collate_fn, num_workers=4)
plain_loader = DataLoader(dataset, batch_size=8, shuffle=True, num_workers=4)  # want: LOAD002
model = nn.Sequential(nn.Conv2d(3, 64, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10)).cuda()
opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)

for epoch in range(50):
    for samples, targets in detr_loader:
        samples = samples.to("cuda", non_blocking=True)
        targets = torch.stack(targets).cuda()
        loss = nn.functional.cross_entropy(model(samples.tensors), targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
    for samples, targets in grounding_loader:
        samples, targets = samples.to("cuda", non_blocking=True), targets.cuda()
        loss = nn.functional.cross_entropy(model(samples.tensors), targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
    for images, labels in plain_loader:
        images, labels = images.cuda(), labels.cuda()
        loss = nn.functional.cross_entropy(model(images), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
