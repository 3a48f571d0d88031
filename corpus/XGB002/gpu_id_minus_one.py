import xgboost as xgb

# gpu_id=-1 with gpu_hist trained on the GPU; XGBoost 2 maps gpu_id=-1 to the
# CPU, so "hist" alone would move training off the GPU: no fix.
params = {"tree_method": "gpu_hist", "gpu_id": -1}  # want: XGB002
booster = xgb.train(params, dtrain, 10)
