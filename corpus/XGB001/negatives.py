import numpy as np
import xgboost as xgb


class DMatrix:
    """A local class that happens to share the name."""

    def __init__(self, data):
        self.data = data


X, y = np.random.rand(100, 4), np.random.rand(100)
local = DMatrix(X)

# Only used for prediction: DMatrix is right.
booster = xgb.Booster(model_file="model.json")
dtest = xgb.DMatrix(X)
preds = booster.predict(dtest)

# exact tree method: QuantileDMatrix does not apply.
exact = xgb.DMatrix(X, label=y)
xgb.train({"tree_method": "exact"}, exact, 10)

# A file path: QuantileDMatrix cannot read it.
from_file = xgb.DMatrix("train.libsvm?format=libsvm")
xgb.train({}, from_file, 10)

# Used in a way gpuopt does not know: left alone.
shared = xgb.DMatrix(X, label=y)
xgb.train({}, shared, 10)
part = shared.slice([0, 1, 2])

# Paths built at run time: only DMatrix loads files.
import os
here = os.path.dirname(__file__)
from_join = xgb.DMatrix(os.path.join(here, "train.txt?format=libsvm"))
xgb.train({}, from_join, 10)
train_path = here + "/train.txt"
from_name = xgb.DMatrix(train_path)
xgb.train({}, from_name, 10)

# Continued training: the new matrix's bins must match the old model's.
more = xgb.DMatrix(X, label=y)
xgb.train({"tree_method": "hist"}, more, 10, xgb_model=booster)
