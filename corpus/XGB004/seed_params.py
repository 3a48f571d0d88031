import xgboost as xgb

# Seed 000, "Critical Parameters": the seed's recommended dict still sets the
# predictor, removed in XGBoost 2.0 (prediction follows device).
params = {
    'tree_method': 'hist',  # GPU-accelerated histogram
    'device': 'cuda:0',  # Explicit GPU device
    'max_bin': 256,  # Higher bins = better splits (VRAM permitting)
    'grow_policy': 'depthwise',  # vs 'lossguide' for imbalanced data
    'predictor': 'gpu_predictor',  # want: XGB004
}
model = xgb.train(params, xgb.QuantileDMatrix([[1.0]], label=[0.0]), num_boost_round=100)
