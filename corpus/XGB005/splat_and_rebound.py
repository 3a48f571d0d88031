# gpuopt-env: target-gpu=h100
import xgboost as xgb


def fit(X, y, dtrain):
    # Estimator parameters kept in a dict and splatted in: gpuopt reads the
    # whole dict, so device="cuda" beside the splat cannot repeat a key.
    params = {"tree_method": "hist", "max_depth": 6, "n_estimators": 200}
    params["learning_rate"] = 0.05
    clf = xgb.XGBClassifier(**params)  # want: XGB005
    clf.fit(X, y)

    # A demo that rebinds its params between trainings: each call reads the
    # dict assigned last before it, and each dict is reported once.
    param = {"max_depth": 2, "eta": 1}  # want: XGB005
    xgb.cv(param, dtrain, 10, nfold=5)
    xgb.cv(param, dtrain, 10, nfold=3)
    param = {"max_depth": 3, "device": "cuda"}
    return xgb.cv(param, dtrain, 10, nfold=5)
