# A forecasting pipeline's prediction pass (blind sample S38A): the step
# is the model's forward and a post-processing method of the class, both
# torch work on the device, then the copy. With no host work to overlap,
# one large copy after the loop gains nothing. A pass whose helper runs
# NumPy on the host every step keeps the finding.
import numpy as np
import torch
import torch.nn as nn


class Pipeline:
    def model_forward(self, model, batch):
        return model(batch["x"].cuda())

    def postprocess_quantiles(self, pred):
        return torch.sort(pred, dim=-1).values

    def window(self, n):
        return np.hanning(n) / np.hanning(n).sum()

    @torch.no_grad()
    def predict_quantiles(self, model: nn.Module, loader):
        model.eval()
        qs = []
        for batch in loader:
            pred = self.model_forward(model, batch)
            q = self.postprocess_quantiles(pred)
            qs.append(q.detach().cpu().numpy())
        return np.concatenate(qs, axis=0)

    @torch.no_grad()
    def predict_smoothed(self, model: nn.Module, loader):
        model.eval()
        out, curves = [], []
        for batch in loader:
            pred = self.model_forward(model, batch)
            q = self.postprocess_quantiles(pred)
            curves.append(self.window(len(curves) % 7 + 3))
            out.append(q.cpu().numpy())  # want: SYNC001
        return np.concatenate(out, axis=0), curves


pipeline = Pipeline()
for epoch in range(10):
    pipeline.predict_quantiles(nn.Linear(8, 3).cuda(), loader)
    pipeline.predict_smoothed(nn.Linear(8, 3).cuda(), loader)
