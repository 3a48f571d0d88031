import cupy
import torch
import torch.nn as nn

_kernel = cupy.RawKernel(
    r"""
extern "C" __global__ void scaled_relu(const float* x, float* y, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0 ? 2 * x[i] : 0;
}
""",
    "scaled_relu",
)


class ScaledRelu(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        _kernel(((n + 255) // 256,), (256,), (x, y, cupy.int32(n)))
        return y
