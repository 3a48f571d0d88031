# Large arrays whose uses gpuopt cannot follow: the finding comes without a
# code action.
# gpuopt-env: target-gpu=h100
import numpy as np

import mylib


def build():
    a = np.ones((2048, 2048))  # want: CUPY001
    return a  # returned: the caller may need a NumPy array


b = np.random.rand(5000, 5000)  # want: CUPY001
c = b @ mylib.weights  # an operand of unknown origin

d = np.zeros((1024, 1024))  # want: CUPY001
cache = {"d": d}

e = np.empty((1 << 10) ** 2)  # want: CUPY001
for row in e:
    pass
