import numpy as np
import xgboost as xgb

rng = np.random.default_rng(0)
X_train, y_train = rng.random((256, 8)), rng.random(256)
X_val, y_val = rng.random((64, 8)), rng.random(64)
X_test = rng.random((32, 8))

# Seed 000, "DMatrix vs QuantileDMatrix": the training and validation matrices
# become QuantileDMatrix; the validation one needs ref= the training matrix
# (the seed's own "after" forgets it). The test matrix is only predicted on.
dtrain = xgb.DMatrix(X_train.astype(np.float32), label=y_train)  # want: XGB001
dval = xgb.DMatrix(X_val.astype(np.float32), label=y_val)  # want: XGB001
dtest = xgb.DMatrix(X_test.astype(np.float32))

params = {"tree_method": "hist", "device": "cuda:0", "max_bin": 256, "grow_policy": "depthwise"}
model = xgb.train(params, dtrain, num_boost_round=100, evals=[(dval, "val")])
preds = model.predict(dtest)
