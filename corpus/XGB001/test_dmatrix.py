# A test module: a DMatrix here may be what the test is about.
import numpy as np
import xgboost as xgb


def test_train_on_dmatrix():
    X, y = np.random.rand(20, 3), np.random.rand(20)
    dtrain = xgb.DMatrix(X, label=y)
    booster = xgb.train({"tree_method": "hist"}, dtrain, 2)
    assert booster.num_boosted_rounds() == 2
