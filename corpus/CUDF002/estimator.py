import pandas as pd
from xgboost import XGBClassifier

train = pd.read_parquet("train.parquet", columns=["a", "b", "label"])  # want: CUDF002
train = train.dropna()
features = train.drop(columns=["label"])
clf = XGBClassifier(n_estimators=200, device="cuda")
clf.fit(features, train["label"])
print(len(train), features.shape)
