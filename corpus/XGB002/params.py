import xgboost as xgb

params = {"tree_method": "gpu_hist", "max_depth": 6}  # want: XGB002
single = {'tree_method': 'gpu_hist'}  # want: XGB002
with_device = {"tree_method": "gpu_hist", "device": "cuda:1"}  # want: XGB002
kw = dict(tree_method="gpu_hist", eta=0.1)  # want: XGB002
clf = xgb.XGBClassifier(tree_method="gpu_hist", n_estimators=10)  # want: XGB002
reg = xgb.XGBRegressor(
    n_estimators=100,
    tree_method="gpu_hist",  # want: XGB002
)
params["tree_method"] = "gpu_hist"  # want: XGB002
booster = xgb.Booster()
booster.set_param("tree_method", "gpu_hist")  # want: XGB002
clf.set_params(tree_method='gpu_hist')  # want: XGB002
