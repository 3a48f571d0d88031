# gpuopt-env: target-gpu=h100
# The script hides every GPU on purpose (CUDA_VISIBLE_DEVICES = "-1"): it
# trains on the CPU by choice, and device="cuda" would reach no GPU. No
# GPU rule reports anything here.
import os

os.environ["CUDA_VISIBLE_DEVICES"] = "-1"

import numpy as np
import xgboost as xgb

X = np.random.rand(500_000, 40)
y = np.random.randint(0, 2, 500_000)
clf = xgb.XGBClassifier(n_estimators=500, tree_method="hist")
clf.fit(X, y)
