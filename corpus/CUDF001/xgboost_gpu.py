"""Train a GPU XGBoost model on a pandas frame."""
# gpuopt-env: target-gpu=h100
from __future__ import annotations

import pandas as pd
import xgboost as xgb


def main():
    df = pd.read_parquet("features.parquet")  # want: CUDF001
    dtrain = xgb.QuantileDMatrix(df.drop(columns=["y"]), label=df["y"])
    params = {"tree_method": "hist", "device": "cuda", "max_depth": 8}
    xgb.train(params, dtrain, num_boost_round=100)


if __name__ == "__main__":
    main()
