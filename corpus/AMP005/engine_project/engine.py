# gpuopt-env: target-gpu=h100
# The training loop lives here, but train.py runs it: TF32 is a process-wide
# setting that belongs in the script (which gets the finding), not here.
import torch


def train_fn(data_loader, model, optimizer, device):
    model.train()
    for batch in data_loader:
        ids = batch["ids"].to(device)
        targets = batch["targets"].to(device)
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(ids=ids), targets)
        loss.backward()
        optimizer.step()


def eval_fn(data_loader, model, device):
    model.eval()
    with torch.no_grad():
        return [model(ids=batch["ids"].to(device)) for batch in data_loader]
