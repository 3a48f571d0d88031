# gpuopt-env: torch=2.4
# Two imports bind the package `selfsup` (`import selfsup.folders`, `import
# selfsup.heads`): `selfsup.folders.IndexedImageFolder` is still the
# project's ImageFolder subclass, and the strings name ImageNet: epochs of
# minutes, where a worker restart is under 1%. Silent.
import argparse

import torch
import torchvision

import selfsup.folders
import selfsup.heads

parser = argparse.ArgumentParser(description="Self-supervised ImageNet pretraining")
parser.add_argument("data")
parser.add_argument("--workers", type=int, default=32)
args = parser.parse_args()

backbone = torchvision.models.resnet50().cuda()
head = selfsup.heads.projection_head(1000).cuda()
optimizer = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.1)
dataset = selfsup.folders.IndexedImageFolder(args.data + "/train")
loader = torch.utils.data.DataLoader(dataset, batch_size=256, shuffle=True, num_workers=args.workers, pin_memory=True)

for epoch in range(200):
    for images, _, index in loader:
        loss = head(backbone(images.cuda(non_blocking=True))).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
