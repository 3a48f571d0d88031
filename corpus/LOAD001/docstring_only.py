"""A module with a docstring and one import: `import os` goes after the
import."""
import torch.utils.data as tud


def main():
    import torch
    dataset = tud.TensorDataset(torch.randn(64, 8), torch.randn(64, 2))
    model = torch.nn.Linear(8, 2).cuda()
    loader = tud.DataLoader(dataset, batch_size=8)  # want: LOAD001
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
        loss.backward()
