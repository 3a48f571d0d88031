"""Aliased import: DM is xgboost's DMatrix."""
from xgboost import DMatrix as DM, train
import numpy as np

X, y = np.random.rand(100, 4), np.random.rand(100)
d = DM(X, y)  # want: XGB001
booster = train({"device": "cuda"}, d, 10)
