# A training script's prediction pass: inference_fn runs once per fold,
# after the fold's training, so deferring its copies saves microseconds
# once (blind sample S16F's MoA). The validation pass, run every epoch,
# is reported.
import time
import numpy as np
import torch
import torch.nn as nn


def valid_fn(model, loader):
    preds = []
    with torch.no_grad():
        for x in loader:
            t_step = time.perf_counter()  # host work each step (timing, logging)
            preds.append(model(x.cuda()).sigmoid().cpu().numpy())  # want: SYNC001
    return np.concatenate(preds)


def inference_fn(model, loader):
    preds = []
    with torch.no_grad():
        for x in loader:
            preds.append(model(x.cuda()).sigmoid().cpu().numpy())
    return np.concatenate(preds)


def run_training(fold):
    model = nn.Sequential(nn.Linear(875, 1024), nn.ReLU(), nn.Linear(1024, 206)).cuda()
    opt = torch.optim.Adam(model.parameters(), fused=True)
    for epoch in range(25):
        for x, y in train_loader:
            loss = nn.functional.binary_cross_entropy_with_logits(model(x.cuda()), y.cuda())
            opt.zero_grad()
            loss.backward()
            opt.step()
        valid_preds = valid_fn(model, valid_loader)
    return inference_fn(model, test_loader)


predictions = [run_training(fold) for fold in range(5)]
