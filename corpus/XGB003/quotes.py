import xgboost as xgb

# The new device string takes the quotes of the call's other strings.
clf = xgb.XGBClassifier(objective='binary:logistic', gpu_id=0)  # want: XGB003
reg = xgb.XGBRegressor(gpu_id=1)  # want: XGB003
