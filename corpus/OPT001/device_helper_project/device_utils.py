"""The project's device helper: the device the caller names, else CUDA
when there is one (blind sample S29H's CTGAN)."""
import torch


def set_device(enable_gpu, device=None):
    if device:
        return torch.device(device)
    if enable_gpu:
        device = "cuda" if torch.cuda.is_available() else "cpu"
    else:
        device = "cpu"
    return torch.device(device)
