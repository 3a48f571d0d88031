# gpuopt-env: xgboost=2.0
# The script chooses the device from a flag: hist is its CPU path, gpu_hist
# its GPU path (XGB002 moves that one to device="cuda"); hist on its own is
# not reported.
import xgboost as xgb


def train(X, y, no_cuda=False):
    param = {}
    param["subsample"] = 0.5
    dtrain = xgb.DMatrix(X, label=y)
    if no_cuda:
        param["tree_method"] = "hist"
    else:
        param["tree_method"] = "gpu_hist"
    return xgb.train(param, dtrain, 10)
