import numpy as np
import torch

n = 64
x = torch.randn(n)
w = torch.randn(n)
y = torch.zeros(n)
m = torch.randn(n, 8)
xs = [1.0] * n
ys = [0.0] * n
a = np.zeros(n)

# Prefix sum: each iteration reads what the previous one wrote.
for i1 in range(1, n):
    y[i1] = y[i1 - 1] + x[i1]

# Recurrence written with the loop variable only, but through another index.
for i2 in range(n - 1):
    y[i2 + 1] = y[i2] * 0.5 + x[i2]

# Other effects in the body.
for i3 in range(n):
    print(i3)
    y[i3] = x[i3] * 2

# The loop variable escapes: read after the loop.
for i4 in range(n):
    y[i4] = x[i4] * w[i4]
print(i4)

# The loop variable used as a value, not only as an index.
for i5 in range(n):
    y[i5] = x[i5] * i5

# Python lists: y[:n] = x[:n] * 2 would repeat the list.
for i6 in range(n):
    ys[i6] = xs[i6] * 2

# The target is a list, the operand a tensor.
for i7 in range(n):
    ys[i7] = x[i7] * 2

# Not elementwise: a reduction and a call gpuopt does not know.
for i8 in range(n):
    y[i8] = m[i8].sum()
for i9 in range(n):
    y[i9] = torch.clamp(x[i9], 0, 1)

# A view of another operand: iteration i reads what i-1 wrote.
shifted = y[1:]
for i10 in range(len(shifted)):
    shifted[i10] = y[i10] + x[i10]

# Ranks differ: w[i] is a scalar per row of m in the loop, the last axis of
# the slice after the rewrite.
out2 = torch.zeros(n, 8)
for i11 in range(n):
    out2[i11] = m[i11] * w[i11]

# torch tensors mixed with a NumPy array, and a NumPy function on tensors.
for i12 in range(n):
    a[i12] = x[i12] * 2
for i13 in range(n):
    y[i13] = np.exp(x[i13])

# A CPU tensor and a CUDA tensor: 0-d CPU values mix with CUDA per element only.
g = torch.randn(n, device="cuda")
for i14 in range(n):
    y[i14] = g[i14] + x[i14]

# A negative or unknown bound form, a step, a non-range iterable.
for i15 in range(0, n, 2):
    y[i15] = x[i15] * 2
for i16 in range(-n):
    y[i16] = x[i16] * 2
for i17 in range(int(n / 2)):
    y[i17] = x[i17] * 2

# A scalar that is not a numeric constant (could be a tensor of any shape).
scale = w * 2
for i18 in range(n):
    y[i18] = x[i18] * scale

# Unknown types: parameters without annotations.
def unknown(x, w, y):
    for i in range(len(x)):
        y[i] = x[i] * w[i]


# An else clause, and an index expression that is not the loop variable.
for i19 in range(n):
    y[i19] = x[i19] * 2
else:
    pass
for i20 in range(n):
    y[i20] = x[n - 1 - i20]

# A fill without any operand is left alone.
for i21 in range(n):
    y[i21] = 0.0

# Comments inside the loop: report, but no fix (they would be lost).
for i22 in range(n):  # want: VEC003
    # square it
    y[i22] = x[i22] ** 2

# A loop variable reused by a later loop stays free to vectorise.
for i in range(n):  # want: VEC003
    y[i] = x[i] - w[i]
for i in range(3):
    print(i)
