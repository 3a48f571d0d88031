# gpuopt-env: target-gpu=h100
# A ResNet-50 fine-tuned at batch 2 (large fundus images, little memory
# left): torchvision's CNNs ran 0.60-0.99x with bf16 at batch 2 on an
# H200, with or without channels_last. No autocast advice, for the
# training step or its evaluation loop. Silent.
import torch
import torchvision
from torch.utils.data import DataLoader


def main(train_set, val_set, epochs):
    model = torchvision.models.resnet50(num_classes=2).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)
    train_loader = DataLoader(train_set, batch_size=2, shuffle=True, num_workers=8, pin_memory=True, persistent_workers=True)
    val_loader = DataLoader(val_set, batch_size=2, num_workers=8, pin_memory=True, persistent_workers=True)
    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            for x, y in val_loader:
                x = x.cuda(non_blocking=True)
                print(model(x).argmax(1))
