# Libraries that support old PyTorch releases keep the old spelling behind a
# version test or an ImportError fallback: rewriting it breaks those releases.
import torch
from packaging import version


def make_scaler(**kwargs):
    if version.parse(torch.__version__) >= version.parse("2.3"):
        return torch.amp.GradScaler("cuda", **kwargs)
    else:
        return torch.cuda.amp.GradScaler(**kwargs)


def make_scaler_probe():
    if hasattr(torch.amp, "GradScaler"):
        return torch.amp.GradScaler("cuda")
    return torch.cuda.amp.GradScaler()


try:
    from torch.amp import GradScaler
except ImportError:
    from torch.cuda.amp import GradScaler

scaler = torch.cuda.amp.GradScaler() if TORCH_VERSION < (2, 3) else torch.amp.GradScaler("cuda")

# Not guarded: still reported.
other = torch.cuda.amp.GradScaler()  # want: AMP002
