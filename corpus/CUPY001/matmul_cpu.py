# gpuopt-env: target-gpu=h100
# The CPU half of a course's timing pair (matmul_cpu.py beside a GPU
# version): its NumPy arrays are the baseline, on the host on purpose.
import numpy as np

a = np.random.randn(4000, 4000)
b = np.random.randn(4000, 4000)
print((a @ b).sum())
