# gpuopt-env: target-gpu=h100
# A study script on scikit-learn's iris (150 rows): a GPU does not train
# the booster faster than the CPU on data this small, so XGB005 is silent.
from sklearn.datasets import load_iris
from sklearn.model_selection import train_test_split
from xgboost import XGBClassifier

x, y = load_iris(return_X_y=True)
x_train, x_test, y_train, y_test = train_test_split(x, y, train_size=0.8)
model = XGBClassifier(n_estimators=200, learning_rate=0.1, tree_method="hist")
model.fit(x_train, y_train)
print(model.score(x_test, y_test))
