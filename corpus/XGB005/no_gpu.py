import xgboost as xgb

# No GPU known: a hint, never rewritten.
clf = xgb.XGBClassifier(n_estimators=10)  # want: XGB005
clf.fit(X, y)
