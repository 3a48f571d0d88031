# gpuopt-env: target-gpu=h100
# A torchvision Faster R-CNN built in a project module: its forward takes
# a list of images of their own sizes and runs data-dependent proposals
# and NMS, where torch.compile breaks the graph and recompiles (blind
# sample S30K's Global-Wheat-Detection). No compile hint.
import torch

from model import obtain_model


def train(loader, epochs):
    device = torch.device("cuda")
    model = obtain_model()
    model.to(device)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=0.005, momentum=0.9, weight_decay=0.0005, fused=True)
    for epoch in range(epochs):
        for images, targets in loader:
            images = [image.to(device, non_blocking=True) for image in images]
            targets = [{k: v.to(device, non_blocking=True) for k, v in t.items()} for t in targets]
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss_dict = model(images, targets)
                losses = sum(loss for loss in loss_dict.values())
            optimizer.zero_grad()
            losses.backward()
            optimizer.step()
