# No GPU known: the hint says what it assumed.
import numpy as np

big = np.zeros((4096, 4096))  # want: CUPY001
print(big.sum())
