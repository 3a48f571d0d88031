# Silent: the accelerator is already installed.
# gpuopt-env: target-gpu=h100
import cudf.pandas

cudf.pandas.install()
import pandas as pd
from xgboost import XGBClassifier

df = pd.read_csv("train.csv")
XGBClassifier(device="cuda").fit(df[["a"]], df["b"])
