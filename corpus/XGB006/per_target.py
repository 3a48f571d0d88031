import numpy as np
import pandas as pd
from xgboost import DMatrix, train


def fit_all(frame: pd.DataFrame, targets, params):
    features = frame.drop(columns=targets)
    boosters = {}
    for name in targets:
        # one model per target column
        d = DMatrix(features.to_numpy(), frame[name], missing=np.nan)  # want: XGB006
        booster = train(params, d, num_boost_round=50, evals=[(d, "train")])
        print(name, d.num_row(), booster.eval(d))
        boosters[name] = booster
    return boosters


def fit_weighted(X, Y, w, params):
    out = []
    for j in range(Y.shape[1]):
        target = Y[:, j]
        dm = DMatrix(X, label=target, weight=w, nthread=4)  # want: XGB006
        out.append(train(params, dm).predict(dm))
    return out


def fit_long(X, Y, params):
    for j in range(Y.shape[1]):
        dm = DMatrix(  # want: XGB006
            X,
            label=Y[:, j],
        )
        train(params, dm)
