from xgboost import XGBRegressor
import xgboost

reg = XGBRegressor(tree_method="hist", gpu_id=1)  # want: XGB003
params = {
    "tree_method": "hist",
    "gpu_id": 0,  # want: XGB003
    "eta": 0.3,
}
both = {"device": "cuda", "gpu_id": 0, "tree_method": "hist"}  # want: XGB003
params["gpu_id"] = 2  # want: XGB003
dyn = {"tree_method": "hist", "gpu_id": rank}  # want: XGB003
