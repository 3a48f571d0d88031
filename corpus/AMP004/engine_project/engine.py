# gpuopt-env: target-gpu=h100
# A Kaggle-style engine module: the device is only a parameter; train.py
# passes torch.device(config.DEVICE), the GPU. The TF32 setting belongs in
# train.py (process-wide), not here. The evaluation loop joins the
# training step's finding, whose fix wraps both.
import torch
import torch.nn as nn


def loss_fn(outputs, targets):
    return nn.BCEWithLogitsLoss()(outputs, targets.view(-1, 1))


def train_fn(data_loader, model, optimizer, device):
    model.train()
    for batch in data_loader:
        ids = batch["ids"].to(device, dtype=torch.long)
        targets = batch["targets"].to(device, dtype=torch.float)
        optimizer.zero_grad()
        outputs = model(ids=ids)  # want: AMP004
        loss = loss_fn(outputs, targets)
        loss.backward()
        optimizer.step()


def eval_fn(data_loader, model, device):
    model.eval()
    scores = []
    with torch.no_grad():
        for batch in data_loader:
            ids = batch["ids"].to(device, dtype=torch.long)
            outputs = model(ids=ids)
            scores.append(outputs)
    return torch.cat(scores).cpu()
