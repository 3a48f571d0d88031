import torch


def gather(ids: torch.Tensor, table: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    for i, t in enumerate(ids):  # want: VEC001
        out[i] = table[t]
    return out


def chain(ids: torch.Tensor, lut: torch.Tensor, table: torch.Tensor, out: torch.Tensor):
    for k, v in enumerate(ids):  # want: VEC001
        out[k] = table[lut[lut[v]]]
