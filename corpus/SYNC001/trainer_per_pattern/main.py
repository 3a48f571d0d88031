# gpuopt-env: target-gpu=h100
# Each pass of the loop trains a whole model (the imported trainer runs
# the steps) and then copies one forecast to the host: the .cpu() runs
# six times in all, not every step, so SYNC001 stays silent (blind sample
# S15E's N-BEATS).
import torch

from trainer import trainer

forecasts = []
for pattern in ["Yearly", "Quarterly", "Monthly", "Weekly", "Daily", "Hourly"]:
    data = iter([(torch.randn(1024, 48), torch.randn(1024, 6))] * 1000)
    model = trainer(torch.nn.Linear(48, 6).cuda(), data, 1000)
    model.eval()
    with torch.no_grad():
        forecasts.extend(model(torch.randn(1024, 48).cuda()).cpu().numpy())
