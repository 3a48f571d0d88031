# Silent: frames that never reach XGBoost, readers cuDF has no twin for.
import pandas as pd
import xgboost as xgb

stats = pd.read_csv("stats.csv")
print(stats.describe())

js = pd.read_json("records.json")
dtrain = xgb.DMatrix(js)

booster = xgb.Booster()
booster.load_model("model.json")

# The frame also trains scikit-learn and LightGBM models, which want host
# data: reading it with cuDF would break them. Silent.
import lightgbm as lgb
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import GridSearchCV

shared = pd.read_csv("shared.csv")
X_shared, y_shared = shared.drop(columns="y"), shared["y"]
xgb.XGBRegressor(device="cuda").fit(X_shared, y_shared)
lgb.LGBMRegressor().fit(X_shared, y_shared)
searched = pd.read_csv("searched.csv")
GridSearchCV(RandomForestRegressor(), {"n_estimators": [10, 100]}).fit(searched.drop(columns="y"), searched["y"])
xgb.XGBRegressor(device="cuda").fit(searched.drop(columns="y"), searched["y"])
