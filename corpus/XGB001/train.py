import numpy as np
import xgboost as xgb

X, y = np.random.rand(100, 4), np.random.rand(100)
params = {"tree_method": "hist", "device": "cuda"}
dtrain = xgb.DMatrix(X, label=y)  # want: XGB001
dvalid = xgb.DMatrix(X[:10], label=y[:10])  # want: XGB001
booster = xgb.train(params, dtrain, num_boost_round=10, evals=[(dtrain, "train"), (dvalid, "valid")])
print(booster.predict(dvalid))

# Freed after training (del, then gc.collect()): a QuantileDMatrix is freed
# the same way.
dfit = xgb.DMatrix(X, label=y)  # want: XGB001
xgb.train(params, dfit, num_boost_round=10)
del dfit
