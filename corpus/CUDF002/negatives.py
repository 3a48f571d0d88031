# Silent: frames that never reach XGBoost, readers cuDF has no twin for.
import pandas as pd
import xgboost as xgb

stats = pd.read_csv("stats.csv")
print(stats.describe())

js = pd.read_json("records.json")
dtrain = xgb.DMatrix(js)

booster = xgb.Booster()
booster.load_model("model.json")
