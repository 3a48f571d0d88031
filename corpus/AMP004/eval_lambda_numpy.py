# gpuopt-env: target-gpu=h100
# A video-prediction experiment whose test loop keeps inputs, targets and
# predictions as NumPy arrays through a lambda mapped over them (blind
# sample S27D's SimVP): under a bf16 wrap the predictions would reach
# .numpy() in bf16, which NumPy refuses. The test loop joins the training
# step's finding without being wrapped; the fix wraps the training step.
import numpy as np
import torch
import torch.nn as nn


class Predictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.TransformerEncoder(nn.TransformerEncoderLayer(1024, 16, batch_first=True), 8)
        self.readout = nn.Linear(1024, 1024)

    def forward(self, x):
        return self.readout(self.net(x))


def train(model, optimizer, loader, epochs):
    for epoch in range(epochs):
        for batch_x, batch_y in loader:
            batch_x, batch_y = batch_x.cuda(), batch_y.cuda()
            pred_y = model(batch_x)  # want: AMP004
            loss = nn.functional.mse_loss(pred_y, batch_y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        test(model, loader)


def test(model, loader):
    model.eval()
    trues_lst, preds_lst = [], []
    with torch.no_grad():
        for batch_x, batch_y in loader:
            pred_y = model(batch_x.cuda())
            list(map(lambda data, lst: lst.append(data.detach().cpu().numpy()), [batch_y, pred_y], [trues_lst, preds_lst]))
    model.train()
    return np.mean((np.concatenate(preds_lst) - np.concatenate(trues_lst)) ** 2)


model = Predictor().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
train(model, optimizer, loader, 100)
