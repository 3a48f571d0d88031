# The guide's "Single-pass training (reuse QuantileDMatrix across slots)":
# before, the matrix is rebuilt for every slot.
import numpy as np
import xgboost as xgb

X_train = np.random.rand(1000, 16)
y_train = np.random.rand(1000, 4)
num_slots = y_train.shape[1]
params = {"tree_method": "hist", "device": "cuda"}

models = []
for slot_idx in range(num_slots):
    dtrain = xgb.QuantileDMatrix(X_train.astype(np.float32), label=y_train[:, slot_idx])  # want: XGB006
    model = xgb.train(params, dtrain, num_boost_round=100)
    models.append(model)
