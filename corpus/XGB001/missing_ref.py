import xgboost as xgb

dtrain = xgb.QuantileDMatrix(X_train, label=y_train)
dvalid = xgb.QuantileDMatrix(X_valid, label=y_valid)  # want: XGB001
dtest = xgb.QuantileDMatrix(X_test, label=y_test, ref=dtrain)
booster = xgb.train(
    {"tree_method": "hist", "device": "cuda"},
    dtrain,
    evals=[(dtrain, "train"), (dvalid, "valid"), (dtest, "test")],
)
