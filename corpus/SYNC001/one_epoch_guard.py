# A training loop keeps downscaled images for a TensorBoard projector only
# in one chosen epoch (`if epoch == 119:`, blind sample S37H's vehicle
# re-identification): that copy runs in one pass of the whole run, not on
# every step. The copy of every step's outputs is reported.
import numpy as np
import torch
import torch.nn.functional as F


def train_epoch(model, loader, optimizer, epoch, device="cuda"):
    images, scores = [], []
    for image, label in loader:
        image, label = image.to(device), label.to(device)
        logits = model(image)
        loss = F.cross_entropy(logits, label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if epoch == 119:
            images.append(F.interpolate(image, (64, 64)).cpu())
        scores.append(logits.detach().cpu())  # want: SYNC001
    return np.concatenate(scores), images
