"""Train an XGBoost model."""
import xgboost as xgb
from xgboost import DMatrix as DM
import numpy as np

X = np.random.rand(100, 4)
y = np.random.rand(100)

params = {
    "tree_method": "gpu_hist",  # fast
    "gpu_id": 0,
    "predictor": "gpu_predictor",
    'max_depth': 6,
}
dtrain = xgb.DMatrix(X, label=y)
dvalid = DM(X[:10], label=y[:10])
booster = xgb.train(params, dtrain, num_boost_round=10, evals=[(dtrain, "train"), (dvalid, "valid")])
pred = booster.predict(dvalid)
clf = xgb.XGBClassifier(tree_method="gpu_hist", gpu_id=1)
print("gpu_hist is old")

class DMatrix:
    pass
local = DMatrix()
