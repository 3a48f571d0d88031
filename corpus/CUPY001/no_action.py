# Large arrays whose uses gpuopt cannot follow: the finding comes without a
# code action. Arrays that are only allocated here (returned, stored,
# iterated row by row) get no finding: building them is not NumPy work
# CuPy would speed up, and a row loop over a CuPy array is slower.
# gpuopt-env: target-gpu=h100
import numpy as np

import mylib


def build():
    a = np.ones((2048, 2048))
    return a  # returned: the caller may need a NumPy array


b = np.random.rand(5000, 5000)  # want: CUPY001
c = b @ mylib.weights  # an operand of unknown origin

d = np.zeros((1024, 1024))
cache = {"d": d}

e = np.empty((1 << 10) ** 2)
for row in e:
    pass



def fill(rows):
    g = np.zeros((2048, 2048))  # want: CUPY001
    g[:] = mylib.transform(rows)  # filled, then summed with NumPy below
    return np.sum(g, axis=0)
