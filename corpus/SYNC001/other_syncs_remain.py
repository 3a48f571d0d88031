# gpuopt-env: target-gpu=h100
# Evaluation loops whose every step syncs anyway: one keeps a per-step
# loss.item() beside the copies it extends, the other computes its loss
# on .cpu() copies in both branches of a config switch. Deferring the
# appended copies saves no wait, so SYNC001 stays silent (blind samples
# S15G and S15H).
import numpy as np
import torch


def evaluate(model, loader, criterion):
    losses, probs = [], []
    with torch.no_grad():
        for images, labels in loader:
            logits = model(images.cuda())
            loss = criterion(logits, labels.cuda())
            losses.append(loss.item())
            probs.extend(torch.sigmoid(logits).cpu().numpy())
    return np.mean(losses), np.array(probs)


def validate(model, loader, criterion, stacks):
    preds, mids = [], []
    with torch.no_grad():
        for x, y in loader:
            pred, mid = model(x.cuda())
            if stacks == 1:
                loss = criterion(pred.cpu(), y)
            else:
                loss = criterion(pred.cpu(), y) + criterion(mid.cpu(), y)
            preds.append(pred.cpu().numpy())
            mids.append(mid.cpu().numpy())
    return np.concatenate(preds), np.concatenate(mids)
