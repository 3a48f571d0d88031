"""A torchvision Faster R-CNN trained with its loss read every step: the
detector's forward already waits for the GPU inside every step (its
samplers' nonzero and torch.where, the NMS), so the read costs next to
nothing and SYNC002 stays silent."""
import torch
import torchvision

device = torch.device("cuda")
model = torchvision.models.detection.fasterrcnn_resnet50_fpn(weights=None, num_classes=3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.005, momentum=0.9, fused=True)


def train_one_epoch(loader):
    model.train()
    total = 0.0
    for images, targets in loader:
        images = [img.to(device) for img in images]
        targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
        loss_dict = model(images, targets)
        losses = sum(loss for loss in loss_dict.values())
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
        total += losses.item()
    return total / len(loader)
