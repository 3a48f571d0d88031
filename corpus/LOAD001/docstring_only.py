"""A module with a docstring and one import: `import os` goes after the
import."""
import torch.utils.data as tud


def main():
    import torch
    from torchvision.datasets import ImageFolder
    dataset = ImageFolder("data/train")
    model = torch.nn.Linear(8, 2).cuda()
    loader = tud.DataLoader(dataset, batch_size=8)  # want: LOAD001
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
        loss.backward()
