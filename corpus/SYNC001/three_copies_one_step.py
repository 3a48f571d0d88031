"""A prediction loop with a progress bar that copies three outputs to
lists every step: the first copy waits for the GPU, the next two then
wait for nothing. One finding names them all."""
import numpy as np
import torch
import torch.nn as nn
from tqdm import tqdm


def predict(model: nn.Module, loader: torch.utils.data.DataLoader, device: torch.device):
    model.eval()
    preds, labels_all, probs, top = [], [], [], []
    with torch.no_grad():
        for images, labels in tqdm(loader):
            out = model(images.to(device))
            p = out.softmax(1)
            preds.extend(out.argmax(1).cpu().numpy())  # want: SYNC001
            labels_all.extend(labels.numpy())
            probs.extend(p.cpu().numpy())
            top.extend(p.max(1).values.cpu().numpy())
    return np.array(preds), np.array(labels_all), np.array(probs), np.array(top)
