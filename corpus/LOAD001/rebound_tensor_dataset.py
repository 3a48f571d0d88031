# gpuopt-env: target-gpu=h100
# An evaluation script rebinds one name to each noise set in turn, the
# tensor and then its TensorDataset: the loader serves tensors in memory,
# where workers add only start-up, so LOAD001 stays silent (blind sample
# S15D's outlier-exposure test.py).
import numpy as np
import torch

model = torch.nn.Linear(3 * 32 * 32, 10).cuda()
targets = torch.ones(2000)

ood_data = torch.from_numpy(np.random.normal(size=(2000, 3, 32, 32)).astype(np.float32))
ood_data = torch.utils.data.TensorDataset(ood_data, targets)
ood_loader = torch.utils.data.DataLoader(ood_data, batch_size=200, shuffle=True)
with torch.no_grad():
    for x, _ in ood_loader:
        scores = model(x.cuda().flatten(1)).softmax(1)
