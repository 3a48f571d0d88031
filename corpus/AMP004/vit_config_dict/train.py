# gpuopt-env: target-gpu=h100
# The ViT is 48 wide, by the config dict written here and read key by key
# down its blocks: a narrow network, where bf16 autocast ran 0.65-0.9× on
# an H100, so AMP004 says nothing (blind sample S14J judged its hedged
# finding on this model false).
import torch
import torch.nn as nn

from vit import ViT

config = {"patch_size": 4, "hidden_size": 48, "num_heads": 4, "num_classes": 10}


class Trainer:
    def __init__(self, model, optimizer, device):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.device = device

    def train(self, loader, epochs):
        for epoch in range(epochs):
            for images, labels in loader:
                images, labels = images.to(self.device), labels.to(self.device)
                loss = nn.functional.cross_entropy(self.model(images), labels)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()


def main(loader):
    model = ViT(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2, fused=True)
    Trainer(model, optimizer, "cuda").train(loader, 100)
