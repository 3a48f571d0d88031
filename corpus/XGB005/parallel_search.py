# gpuopt-env: xgboost=2.1 target-gpu=h100
# The estimator is the base of a grid search that fits in parallel
# processes (n_jobs=-1): on the GPU every worker would open its own CUDA
# context on one device, where the CPU search spreads over the cores
# (blind sample S16C). A search that fits one setting at a time is
# reported.
import xgboost as xgb
from sklearn.model_selection import GridSearchCV

base_model = xgb.XGBClassifier(tree_method="hist", n_estimators=300)
search = GridSearchCV(base_model, {"max_depth": [3, 6, 9]}, cv=5, n_jobs=-1)
search.fit(X, y)

serial_model = xgb.XGBClassifier(tree_method="hist", n_estimators=300)  # want: XGB005
serial = GridSearchCV(estimator=serial_model, param_grid={"max_depth": [3, 6, 9]}, cv=5, n_jobs=1)
serial.fit(X, y)
