# Silent: a module that reads inside functions and is not a script; installing
# the accelerator is the program's decision.
# gpuopt-env: target-gpu=h100
import pandas as pd
import xgboost as xgb


def train(path):
    df = pd.read_csv(path)
    d = xgb.DMatrix(df[["a"]], label=df["b"])
    return xgb.train({"device": "cuda"}, d)
