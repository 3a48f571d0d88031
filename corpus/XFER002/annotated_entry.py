# A batch entry annotated after its copy, with no value (`batch["rgb"]:
# torch.Tensor`): XFER002 reads the annotation as a mention of the entry
# and stays silent, and must not crash (it did once, E998: the review of
# session 38).
import torch
from torch.utils.data import DataLoader


def train(model, dataset, optimizer, epochs, device="cuda"):
    loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True)
    for epoch in range(epochs):
        for batch in loader:
            rgb = batch["rgb"].to(device)
            batch["rgb"]: torch.Tensor
            loss = model(rgb).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
