# gpuopt-env: target-gpu=h100
# A cross-validation wrapper builds its estimator bare and sets its
# parameters later from its caller's dict (`set_params(**params)`), which
# may name the device: XGB005 does not say it runs on the CPU (blind
# sample S15A).
import xgboost as xgb


class XGBClassifierCV:
    def __init__(self, params=None, n_splits=5):
        self.clf = xgb.XGBClassifier(tree_method="hist")
        if params:
            self.clf.set_params(**params)
        self.n_splits = n_splits

    def fit(self, X, y):
        self.clf.fit(X, y)
        return self
