import torch
import torch.nn.functional as F


def clip_bce(output, target):
    """Binary cross-entropy of clip-level probabilities."""
    return F.binary_cross_entropy(output, target)


def frame_bce(output, target):
    return F.binary_cross_entropy(output.flatten(0, 1), target.flatten(0, 1))


def get_loss_func(name):
    if name == "clip_bce":
        return clip_bce
    if name == "frame_bce":
        return frame_bce
    raise ValueError(name)


class ClipBCE(torch.nn.Module):
    def forward(self, output, target):
        return F.binary_cross_entropy(output, target)
