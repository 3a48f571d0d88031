# gpuopt-env: target-gpu=h100
import xgboost as xgb

clf = xgb.XGBClassifier(n_estimators=10, tree_method="hist")  # want: XGB005
params = {  # want: XGB005
    "max_depth": 4,
    "eta": 0.1,
}
booster = xgb.train(params, dtrain, 10)
on_gpu = xgb.XGBRegressor(device="cuda")
exact = xgb.XGBRegressor(tree_method="exact")
splat = xgb.XGBRegressor(**cfg)
clf.fit(X, y)
