# gpuopt-env: target-gpu=h100
# An estimator that only receives a saved model and predicts (blind sample
# S19E's foursquare inference, on its CPU branch): nothing is trained, so
# there is no hist training to move to the GPU. The estimator the script
# fits is still reported.
import numpy as np
import xgboost as xgb


def predict(weights, X, use_gpu):
    if use_gpu:
        model = xgb.XGBClassifier(tree_method="hist", device="cuda")
    else:
        model = xgb.XGBClassifier(tree_method="hist")
    model.load_model(weights)
    return model.predict_proba(X)[:, 1]


def refit(X, y):
    model = xgb.XGBClassifier(tree_method="hist", n_estimators=500)  # want: XGB005
    model.fit(X, y)
    return model


if __name__ == "__main__":
    X, y = np.random.rand(100000, 20), np.random.randint(0, 2, 100000)
    print(predict("model.json", X, False), refit(X, y))
