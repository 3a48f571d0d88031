import xgboost as xgb

params = {"tree_method": "hist", "device": "cuda", "predictor": "gpu_predictor"}  # want: XGB004
cpu = {
    "predictor": "cpu_predictor",  # want: XGB004
    "max_depth": 3,
}
clf = xgb.XGBClassifier(predictor="gpu_predictor", device="cuda")  # want: XGB004
params["predictor"] = "gpu_predictor"  # want: XGB004
keep = {"predictor": "auto"}
