# A batch copied from a pinned loader and then converted on the device
# (`grids = grids.float()`, blind sample S37AJ's SFCNN): the conversion
# runs in the copy's stream order and reads nothing back to the host, so
# non_blocking=True pays. A copy the host checks at once (the if below)
# waits there anyway and is left alone.
import torch
from torch.utils.data import DataLoader


def train(model, dataset, optimizer, epochs, device="cuda"):
    loader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=8, pin_memory=True, persistent_workers=True)
    for epoch in range(epochs):
        for batch in loader:
            grids = batch["grid"].to(device)  # want: XFER002
            grids = grids.float()
            labels = batch["label"].to(device)
            if labels.sum() == 0:
                continue
            loss = torch.nn.functional.mse_loss(model(grids), labels.unsqueeze(1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
