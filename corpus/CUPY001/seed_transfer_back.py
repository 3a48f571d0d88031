# Seed 000's migration with its "Transfer back if needed" step: the host
# consumer (here np.save) gets cp.asnumpy, the work stays on the GPU.
# gpuopt-env: target-gpu=h100
import numpy as np

x = np.random.randn(10000, 1000)  # want: CUPY001
y = np.dot(x, x.T)
np.save("gram.npy", y)
