"""Tabular pipeline: pandas feature prep, one XGBoost model per target column.

Modelled on the usual Kaggle-style notebook turned into a script.
"""
import numpy as np
import pandas as pd
import xgboost as xgb
from sklearn.model_selection import train_test_split

TARGETS = ['churn_30d', 'churn_90d', 'upsell']

# Settings copied from an XGBoost 1.x tutorial.
PARAMS = {
    'objective': 'binary:logistic',
    'eval_metric': 'auc',
    "tree_method": "gpu_hist",   # GPU training
    'gpu_id': 0,
    'predictor': 'gpu_predictor',
    'max_depth': 8,
    'eta': 0.1,
}


def load_frame(n=5000, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(rng.normal(size=(n, 12)), columns=[f'f{i}' for i in range(12)])
    df['region'] = rng.integers(0, 5, size=n)
    for t in TARGETS:
        df[t] = (rng.random(n) < 0.2).astype(int)
    return df


def add_features(df):
    # ratio features; guard against division by zero
    df['f0_over_f1'] = df['f0'] / (df['f1'].abs() + 1e-6)
    df['f2_sq'] = df['f2'] ** 2
    return df


def main():
    df = add_features(load_frame())
    features = [c for c in df.columns if c not in TARGETS]
    train_df, valid_df = train_test_split(df, test_size=0.2, random_state=7)
    X_train = train_df[features].to_numpy(dtype=np.float32)
    X_valid = valid_df[features].to_numpy(dtype=np.float32)

    boosters = {}
    for target in TARGETS:
        dtrain = xgb.DMatrix(X_train, label=train_df[target].to_numpy())
        dvalid = xgb.DMatrix(X_valid, label=valid_df[target].to_numpy())
        boosters[target] = xgb.train(
            PARAMS, dtrain, num_boost_round=200,
            evals=[(dtrain, 'train'), (dvalid, 'valid')],
            early_stopping_rounds=20, verbose_eval=False,
        )
        print(target, boosters[target].best_score)

    # A second opinion from the scikit-learn wrapper.
    clf = xgb.XGBClassifier(n_estimators=300, tree_method='gpu_hist', gpu_id=0)
    clf.fit(X_train, train_df['churn_30d'])
    proba = clf.predict_proba(X_valid)[:, 1]
    print('sklearn wrapper mean p =', proba.mean())


if __name__ == '__main__':
    main()
