"""A monotonic alignment search on the host, as a TTS model's forward
calls it every step (glow-tts runs a Cython kernel on NumPy arrays)."""
import numpy as np
import torch


def maximum_path(scores, mask):
    values = scores.detach().cpu().numpy()
    path = np.zeros_like(values)
    path[..., 0] = 1
    return torch.from_numpy(path).to(scores.device) * mask
