# An empty result built on the CPU and moved (blind sample S33S's JDE,
# `torch.zeros(0, embedding_dim).cuda()` when a frame has no detection):
# no element is copied, so there is nothing to save. Silent. Factories
# whose first argument is a start, not a size (`torch.arange(0, n)`),
# keep the finding.
import torch


def embeddings(model, images, boxes, dim=512):
    out = []
    for img, b in zip(images, boxes):
        if len(b) == 0:
            out.append(torch.zeros(0, dim).cuda())
            continue
        ids = torch.arange(0, len(b)).cuda()  # want: XFER001
        out.append(model(img.cuda().unsqueeze(0))[0, ids])
    return out


def train(model, optimizer, loader):
    for epoch in range(10):
        for images, boxes in loader:
            loss = sum(e.sum() for e in embeddings(model, images, boxes))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
