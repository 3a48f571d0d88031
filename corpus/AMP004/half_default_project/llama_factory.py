import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn = nn.Linear(dim, 3 * dim)
        self.mlp = nn.Linear(dim, 4 * dim)

    def forward(self, x):
        return x + self.mlp(x)[..., : x.shape[-1]] + self.attn(x)[..., : x.shape[-1]]


def build_model(dim=4096, layers=32):
    # The weights are built as fp16 CUDA tensors, as LLaMA checkpoints are.
    torch.set_default_tensor_type(torch.cuda.HalfTensor)
    model = nn.Sequential(*[Block(dim) for _ in range(layers)])
    torch.set_default_tensor_type(torch.FloatTensor)
    return model
