# gpuopt-env: target-gpu=h100
import xgboost as xgb

# Built, never read (its use in a stacking ensemble was commented out).
unused_model = xgb.XGBRegressor(tree_method="hist", n_estimators=500)
# stack = Stacker(base_models=(unused_model,))
