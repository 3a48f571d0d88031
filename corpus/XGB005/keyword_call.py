# gpuopt-env: target-gpu=h100
# xgb.train and xgb.cv called with keywords (params=..., dtrain=...), the
# params built with dict(...): hist on the CPU.
import xgboost as xgb

params = dict(objective="reg:squarederror", eta=0.02, max_depth=6, tree_method="hist")  # want: XGB005
dtrain = xgb.QuantileDMatrix([[1.0], [2.0]], label=[1.0, 2.0])
bst = xgb.train(params=params, dtrain=dtrain, num_boost_round=100)
cv = xgb.cv(params=params, dtrain=dtrain, nfold=5, num_boost_round=100)
