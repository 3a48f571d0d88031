# Silent: data of unknown size that feeds CPU training only; the seed's
# pd.read_csv('large.csv') (no such file next to this case).
# gpuopt-env: target-gpu=h100
import pandas as pd
import xgboost as xgb

df = pd.read_csv('large.csv')
grouped = df.groupby('category')['value'].mean()

small = pd.read_csv("negatives.py", sep="\t")
dtrain = xgb.DMatrix(df[["a"]], label=df["b"])
xgb.train({"tree_method": "hist"}, dtrain)
