# gpuopt-env: target-gpu=h100
# A CuPy lesson: the NumPy arrays are the host data the lesson copies to
# the GPU itself (cp.array) and times against.
import cupy as cp
import numpy as np

A = np.random.uniform(size=(2000, 2000))
B = np.random.uniform(size=A.shape)
C = A @ B
A_dev = cp.array(A, copy=True)
B_dev = cp.array(B, copy=True)
C_dev = A_dev @ B_dev
print(np.allclose(C, cp.asnumpy(C_dev)))
