# A script that trains XGBoost on the CPU on purpose ("device": "cpu"):
# reading its frames with cuDF would only add a copy back to the host.
import pandas as pd
import xgboost as xgb

train = pd.read_csv("train.csv")
X, y = train.drop("label", axis=1), train[["label"]]
dtrain = xgb.DMatrix(X, label=y)
params = {"verbosity": 2, "device": "cpu", "objective": "binary:hinge", "tree_method": "hist"}
booster = xgb.train(params, dtrain, num_boost_round=100)
