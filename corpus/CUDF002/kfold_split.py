# The frame reaches XGBoost through the split a K-fold loop writes with
# tuple assignments, and through sklearn's train_test_split.
import pandas as pd
import xgboost as xgb
from sklearn.model_selection import KFold, train_test_split

train = pd.read_csv("train.csv")  # want: CUDF002
y = train["target"]
X = train.drop(columns=["target", "id"])
folds = KFold(n_splits=5, shuffle=True, random_state=0)
for tr, va in folds.split(X):
    X_tr, X_va = X.iloc[tr], X.iloc[va]
    y_tr, y_va = y.iloc[tr], y.iloc[va]
    model = xgb.XGBClassifier(n_estimators=500, tree_method="hist", device="cuda")
    model.fit(X_tr, y_tr, eval_set=[(X_va, y_va)], verbose=False)

other = pd.read_csv("other.csv")  # want: CUDF002
features = other.drop(columns=["target"])
X_a, X_b, y_a, y_b = train_test_split(features, other["target"], test_size=0.2)
clf = xgb.XGBClassifier(device="cuda")
clf.fit(X_a, y_a)

# A frame split the same way that only feeds scikit-learn: silent.
side = pd.read_csv("side.csv")
s_tr, s_te = side.iloc[:100], side.iloc[100:]
print(s_tr.describe(), s_te.shape)
