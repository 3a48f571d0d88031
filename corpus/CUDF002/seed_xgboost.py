# Seed 000, "XGBoost Integration": the pandas form of its cuDF example.
import pandas as pd
import xgboost as xgb

feature_cols = ["f0", "f1", "f2"]

df = pd.read_csv('train.csv')  # want: CUDF002
X = df[feature_cols]
y = df['target']
dtrain = xgb.DMatrix(X, label=y)
