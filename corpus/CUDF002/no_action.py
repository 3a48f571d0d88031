# Frames that also go where cuDF frames may not: the hint has no code action.
import pandas as pd
import xgboost as xgb
from sklearn.model_selection import train_test_split

df = pd.read_csv("train.csv")  # want: CUDF002
dtrain = xgb.QuantileDMatrix(df.drop(columns="y"), label=df["y"])
folds = train_test_split(df, test_size=0.2)

raw = pd.read_csv("raw.csv", engine="pyarrow")  # want: CUDF002
model = xgb.XGBRegressor(device="cuda").fit(raw[["a", "b"]], raw["c"])

vals = pd.read_parquet("v.parquet")  # want: CUDF002
dval = xgb.DMatrix(vals.values)
