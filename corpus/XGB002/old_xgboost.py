# gpuopt-env: xgboost=1.7
import xgboost as xgb

# XGBoost 1.7 has no device parameter: gpu_hist is the way to use the GPU there.
params = {"tree_method": "gpu_hist"}
