# gpuopt-env: target-gpu=h100
"""The loss is a class of a project module whose forward calls
F.binary_cross_entropy on sigmoid outputs, handed to the training function
(blind sample S19L's retina U-Net): autocast refuses that op, so the
finding says to switch to BCEWithLogits first, and comes without a fix
(the wrap raised RuntimeError at the first step)."""
import torch
import torchvision

from loss import DiceBCELoss


def train(model, loader, optimizer, loss_fn, device):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        y_pred = model(x)  # want: AMP004
        loss = loss_fn(y_pred, y)
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    device = torch.device("cuda")
    model = torchvision.models.segmentation.fcn_resnet50(num_classes=1).to(device)
    optimizer = torch.optim.Adam(model.parameters(), fused=True)
    loss_fn = DiceBCELoss()
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.rand(64, 3, 512, 512), torch.rand(64, 1, 512, 512)), batch_size=8, num_workers=4, pin_memory=True)
    for epoch in range(50):
        train(model, loader, optimizer, loss_fn, device)
