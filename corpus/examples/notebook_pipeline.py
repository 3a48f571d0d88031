# The script version of notebook_pipeline.ipynb: each "# %%" line starts
# the next code cell of the notebook (the jupytext percent format). A
# tabular pipeline: pandas features, an XGBoost model, then a PyTorch model
# on the same features, trained in a cell of its own.

# %%
import numpy as np
import pandas as pd
import xgboost as xgb
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

# %%
df = pd.read_csv("train.csv")
X = df.drop(columns=["label"]).values.astype(np.float32)
y = df["label"].values.astype(np.float32)

# %%
params = {"tree_method": "gpu_hist", "max_depth": 8, "predictor": "gpu_predictor"}
dtrain = xgb.DMatrix(X, label=y)
booster = xgb.train(params, dtrain, num_boost_round=200)

# %%
features = torch.tensor(X)
labels = torch.tensor(y)
loader = DataLoader(TensorDataset(features, labels), batch_size=4096, shuffle=True)

model = nn.Sequential(nn.Linear(X.shape[1], 2048), nn.ReLU(), nn.Linear(2048, 2048), nn.ReLU(), nn.Linear(2048, 1)).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()

# %%
for epoch in range(5):
    total = 0.0
    for xb, yb in loader:
        xb, yb = xb.cuda(), yb.cuda()
        optimizer.zero_grad()
        loss = loss_fn(model(xb).squeeze(1), yb)
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch}: {total:.3f}")
