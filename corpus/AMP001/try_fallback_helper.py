"""A compatibility helper: the new spelling where torch has it, tried in
two signatures, and the deprecated one only as the fallback for old
releases. Every path of the `if` returns, so the last line runs only on a
torch without torch.amp.autocast, where the rewrite would break it."""
import torch


def cuda_autocast(enabled):
    if hasattr(torch, "amp") and hasattr(torch.amp, "autocast"):
        try:
            return torch.amp.autocast("cuda", enabled=enabled)
        except TypeError:
            return torch.amp.autocast(device_type="cuda", enabled=enabled)
    return torch.cuda.amp.autocast(enabled=enabled)


def half_autocast(enabled):
    if hasattr(torch, "amp"):
        try:
            ctx = torch.amp.autocast("cuda", enabled=enabled)
        except TypeError:
            print("old signature")
        else:
            return ctx
    return torch.cuda.amp.autocast(enabled=enabled)  # want: AMP001
