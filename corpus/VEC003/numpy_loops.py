import numpy as np

n = 256
x = np.random.randn(n)
w = np.linspace(0.0, 1.0, n)
y = np.zeros(n)

for i in range(n):  # want: VEC003
    y[i] = np.sqrt(np.abs(x[i])) + np.log1p(w[i])

for i in range(len(w)):  # want: VEC003
    y[i] -= np.minimum(x[i], w[i]) * 3


def normalise(a: np.ndarray, b: np.ndarray, out: np.ndarray):
    for t in range(len(a)):  # want: VEC003
        out[t] = (a[t] - b[t]) / (np.tanh(b[t]) + 2.0)


print(y.mean())
