# A batch dict whose entries are replaced after the copy (`batch["rgb"] =
# rgb / 255.0`, blind sample S38E's Food_Calories_Estimation): the
# assignment replaces the dict's entry and reads nothing from the pinned
# tensor, so the copy may be asynchronous. A batch read again in place
# after its copy (`batch["depth"] += 1` below) keeps the blocking copy.
import torch
from torch.utils.data import DataLoader


def train(model, dataset, optimizer, epochs, device="cuda"):
    loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=8, pin_memory=True, persistent_workers=True)
    for epoch in range(epochs):
        for batch in loader:
            rgb = batch["rgb"].to(device)  # want: XFER002
            depth = batch["depth"].to(device)
            y = batch["y"].to(device)  # want: XFER002
            batch["rgb"] = rgb / 255.0
            batch["depth"] += 1
            batch["target"] = y
            loss = torch.nn.functional.mse_loss(model(batch["rgb"], depth), batch["target"])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
