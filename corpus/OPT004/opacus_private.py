# DP-SGD with Opacus: make_private wraps the model in a GradSampleModule
# whose per-layer hooks compute per-sample gradients, which torch.compile
# does not support, and Poisson sampling changes the batch size nearly
# every step, where cudnn.benchmark times its algorithms again for each
# shape. Neither OPT004 nor OPT003 reports this trainer.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from opacus import PrivacyEngine


def train(loader, epochs=20):
    model = torchvision.models.resnet18(num_classes=10)
    model.fc = nn.Linear(512, 10)
    model = model.cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, fused=True)
    engine = PrivacyEngine()
    model, optimizer, loader = engine.make_private(module=model, optimizer=optimizer, data_loader=loader, noise_multiplier=1.1, max_grad_norm=1.0)
    for epoch in range(epochs):
        for images, target in loader:
            images, target = images.cuda(), target.cuda()
            loss = F.cross_entropy(model(images), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
