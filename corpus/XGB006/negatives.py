import numpy as np
import xgboost as xgb

X = np.random.rand(100, 8)
Y = np.random.rand(100, 3)
params = {"tree_method": "hist"}
folds = [X[:50], X[50:]]

# The features change with the loop.
for i in range(3):
    d = xgb.DMatrix(X[:, i:], label=Y[:, i])
    xgb.train(params, d)

for fold in folds:
    d2 = xgb.DMatrix(fold, label=Y[: len(fold), 0])
    xgb.train(params, d2)

# The label does not change: nothing to set.
for _ in range(3):
    d3 = xgb.DMatrix(X, label=Y[:, 0])
    xgb.train(params, d3)

# The matrix is kept: every kept reference would see the last label.
kept = []
for i in range(3):
    d4 = xgb.DMatrix(X, label=Y[:, i])
    kept.append(d4)

# The matrix is used after the loop.
for i in range(3):
    d5 = xgb.DMatrix(X, label=Y[:, i])
    xgb.train(params, d5)
print(d5.get_label())

# Feature expressions that may differ per call.
def load_features():
    return np.random.rand(100, 8)


for i in range(3):
    d6 = xgb.DMatrix(load_features(), label=Y[:, i])
    xgb.train(params, d6)

for i in range(3):
    d7 = xgb.DMatrix(X + np.random.normal(size=X.shape), label=Y[:, i])
    xgb.train(params, d7)

# The weight changes with the loop too.
for i in range(3):
    d8 = xgb.DMatrix(X, label=Y[:, i], weight=Y[:, (i + 1) % 3])
    xgb.train(params, d8)

# Built only under a condition.
for i in range(3):
    if i > 0:
        d9 = xgb.DMatrix(X, label=Y[:, i])
        xgb.train(params, d9)

# The features are changed in place inside the loop.
for i in range(3):
    X[:, 0] = i
    d10 = xgb.DMatrix(X, label=Y[:, i])
    xgb.train(params, d10)

Z = X.copy()
for i in range(3):
    np.nan_to_num(Z, copy=False)
    shuffle_in_place(Z)
    d11 = xgb.DMatrix(Z, label=Y[:, i])
    xgb.train(params, d11)

# Read before it is built in the iteration.
d12 = None
for i in range(3):
    if d12 is not None:
        print(d12.num_row())
    d12 = xgb.DMatrix(X, label=Y[:, i])
    xgb.train(params, d12)

# A local class named DMatrix.
class DMatrix:
    def __init__(self, data, label=None):
        self.data, self.label = data, label


for i in range(3):
    d13 = DMatrix(X, label=Y[:, i])

# The guide's "after": already built once, labels set in the loop.
dtrain = xgb.QuantileDMatrix(X.astype(np.float32))
for slot_idx in range(3):
    dtrain.set_label(Y[:, slot_idx])  # Reuse matrix
    model = xgb.train(params, dtrain, num_boost_round=100)
