# gpuopt-env: target-gpu=h100
# A layer's module checks its output shape on random CUDA tensors under
# `__main__`: code run once, by hand, that trains nothing. No finding,
# though no other module imports this one.
import torch
import torch.nn as nn


class BilinearPooling(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.proj = nn.Linear(dim_in * dim_in, dim_out)

    def forward(self, a, b):
        outer = torch.einsum("bchw,bdhw->bcd", a, b).flatten(1)
        return self.proj(outer)


if __name__ == "__main__":
    bottom1 = torch.randn(128, 512, 14, 14).cuda()
    bottom2 = torch.randn(128, 512, 14, 14).cuda()
    layer = BilinearPooling(512, 8000)
    layer.cuda()
    layer.train()
    out = layer(bottom1, bottom2)
    print(out.shape)
