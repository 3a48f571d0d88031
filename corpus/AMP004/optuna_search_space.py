# gpuopt-env: target-gpu=h100
# An Optuna objective builds an MLP whose widths the trial draws, at most
# 128 (`trial.suggest_int("n_units", 4, 128)`): whatever the trial, the
# network is narrow, where autocast ran 0.65-0.9x and the compiler
# 0.47-0.89x, and each trial would compile afresh. No OPT004 (nor AMP004
# or AMP005).
import optuna
import torch
import torch.nn as nn


def objective(trial):
    hidden = trial.suggest_int("n_units", 4, 128)
    model = nn.Sequential(nn.Linear(32, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 10)).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=trial.suggest_float("lr", 1e-5, 1e-1, log=True), fused=True)
    for step in range(200):
        x = torch.randn(128, 32, device="cuda")
        y = torch.randint(0, 10, (128,), device="cuda")
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


study = optuna.create_study()
study.optimize(objective, n_trials=50)
