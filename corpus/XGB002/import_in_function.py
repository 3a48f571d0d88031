"""XGBoost imported inside a function (an optional dependency): the file is
an XGBoost file all the same."""


def fit_booster(X, y):
    try:
        import xgboost as xgb
    except ImportError:
        return None
    dtrain = xgb.DMatrix(X, label=y)
    return xgb.train({"tree_method": "gpu_hist", "max_depth": 6}, dtrain, 50)  # want: XGB002
