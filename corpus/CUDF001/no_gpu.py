# No GPU known: the fix is only a hint that says what it assumed.
import pandas as pd
from xgboost import XGBRegressor

df = pd.read_csv("train.csv")  # want: CUDF001
XGBRegressor(device="cuda").fit(df[["a", "b"]], df["c"])
