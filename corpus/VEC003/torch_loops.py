import torch

n = 1024
alpha = 0.5
x = torch.randn(n)
w = torch.randn(n)
y = torch.empty(n)

# Slow: one element per iteration.
for i in range(n):  # want: VEC003
    y[i] = x[i] * w[i] + 1.0

for i in range(len(x)):  # want: VEC003
    y[i] = torch.exp(-x[i]) / (1 + w[i] ** 2)

for k in range(0, n):  # want: VEC003
    y[k] += alpha * x[k]

for j in range(x.shape[0]):  # want: VEC003  keep this note
    y[j] = torch.maximum(x[j], w[j])

# In place: each iteration reads only its own element.
for i in range(y.size(0)):  # want: VEC003
    y[i] = y[i] * 2

# Rows of matrices of the same rank.
rows = torch.randn(n, 8)
scaled = torch.zeros(n, 8)
for i in range(n):  # want: VEC003
    scaled[i] = rows[i] * 2 - rows[i] ** 2

print(y.sum(), scaled.sum())


def scale(x: torch.Tensor, w: torch.Tensor, out: torch.Tensor, n: int) -> torch.Tensor:
    for i in range(n):  # want: VEC003
        out[i] = torch.sigmoid(x[i]) * w[i] - (
            x[i] / 2
        )
    return out


def copy_rows(src: torch.Tensor, dst: torch.Tensor):
    for r in range(len(src)):  # want: VEC003
        dst[r] = src[r]
