# Silent: cudf.pandas is installed, pandas already reads on the GPU.
import cudf.pandas
cudf.pandas.install()

import pandas as pd
import xgboost as xgb

df = pd.read_csv("train.csv")
dtrain = xgb.DMatrix(df[["a", "b"]], label=df["y"])
