# A test module: its CPU hist tests must stay CPU tests.
# gpuopt-env: target-gpu=h100
import pytest
import xgboost as xgb


def test_hist_classifier():
    clf = xgb.XGBClassifier(n_estimators=2, tree_method="hist")
    params = {"tree_method": "hist", "max_depth": 2}
    assert clf is not None and params
