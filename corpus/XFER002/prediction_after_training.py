# The prediction pass over the test set after the epochs (blind sample
# S38E's Food_Calories_Estimation): a loop that trains nothing, runs once
# and is a small share of a training run, so its copies are left alone,
# as LOAD002 leaves such a loader unpinned. The training loop's copies,
# every step, are reported.
import torch
from torch.utils.data import DataLoader


@torch.no_grad()
def predict(model, loader, device):
    model.eval()
    preds = []
    for batch in loader:
        rgb = batch["rgb"].to(device)
        preds.append(model(rgb))
    return torch.cat(preds)


def main(model, train_set, test_set, epochs, device="cuda"):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    train_loader = DataLoader(train_set, batch_size=32, shuffle=True, num_workers=8, pin_memory=True, persistent_workers=True)
    test_loader = DataLoader(test_set, batch_size=32, num_workers=8, pin_memory=True)
    for epoch in range(epochs):
        for batch in train_loader:
            rgb = batch["rgb"].to(device)  # want: XFER002
            loss = model(rgb).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    torch.save(predict(model, test_loader, device), "preds.pt")


if __name__ == "__main__":
    main(torch.nn.Linear(8, 1).cuda(), [], [], 10)
