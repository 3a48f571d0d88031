import numpy as np
import xgboost as xgb


def make_matrices(n_rows=2048, n_cols=16):
    """Splits random data and returns the training and validation matrices."""
    rng = np.random.default_rng(7)
    features = rng.standard_normal((n_rows, n_cols)).astype(np.float32)
    target = rng.standard_normal(n_rows)
    cut = int(n_rows * 0.8)
    dtrain = xgb.DMatrix(features[:cut], label=target[:cut])  # want: XGB001
    dvalid = xgb.DMatrix(features[cut:], label=target[cut:])  # want: XGB001
    return dtrain, dvalid


def fit(dtrain: xgb.DMatrix, dvalid: xgb.DMatrix, rounds: int):
    params = {"tree_method": "hist", "objective": "reg:squarederror"}
    history = {}
    booster = xgb.train(params, dtrain=dtrain, num_boost_round=rounds,
                        evals=[(dtrain, "train"), (dvalid, "valid")], evals_result=history)
    return booster, history


def main():
    dtrain, dvalid = make_matrices()
    booster, history = fit(dtrain, dvalid, 20)
    print(history["valid"]["rmse"][-1], booster.predict(dvalid)[:3])


# A matrix returned by a helper that is also saved: still found (its
# training is seen), but the validation one stays a DMatrix (save_binary).
def load_pair(features, target):
    dfit = xgb.DMatrix(features[:100], label=target[:100])  # want: XGB001
    dcheck = xgb.DMatrix(features[100:], label=target[100:])  # want: XGB001
    dcheck.save_binary("check.buffer")
    return dfit, dcheck


def train_pair(features, target):
    dfit, dcheck = load_pair(features, target)
    return xgb.train({"tree_method": "hist"}, dfit, 10, evals=[(dcheck, "check")])


if __name__ == "__main__":
    main()
