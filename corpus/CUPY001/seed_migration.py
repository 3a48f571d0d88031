# Seed 000, "CuPy Migration (NumPy → GPU)": the NumPy (CPU) form.
# gpuopt-env: target-gpu=h100
import numpy as np

x = np.random.randn(10000, 1000)  # want: CUPY001
y = np.dot(x, x.T)
