# gpuopt-env: xgboost=2.0
# Feature weights set on the training matrix after it is built: a
# QuantileDMatrix takes the same meta information.
import numpy as np
import xgboost as xgb

X, y = np.random.rand(1000, 20), np.random.randint(0, 2, 1000)
dtrain = xgb.DMatrix(X, label=y)  # want: XGB001
dtrain.set_info(feature_weights=np.linspace(0.1, 1.0, 20))
params = {"tree_method": "hist", "device": "cuda", "colsample_bynode": 0.5}
booster = xgb.train(params, dtrain, num_boost_round=50)
