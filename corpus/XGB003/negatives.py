import xgboost as xgb

# A dict that is not XGBoost's (no XGBoost-only key) keeps its gpu_id.
job = {"gpu_id": 0, "name": "train"}
print("gpu_id=0")
