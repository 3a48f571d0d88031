import time
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

device = "cuda"
loader = DataLoader(TensorDataset(torch.randn(64, 16), torch.randint(0, 4, (64,))), batch_size=8)

# K-fold training: each fold's final predictions are copied once per fold,
# after its inner training loop, not once per step.
fold_preds = []
for fold in range(5):
    model = nn.Linear(16, 4).to(device)
    opt = torch.optim.Adam(model.parameters(), fused=True)
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    fold_preds.append(model(torch.randn(64, 16, device=device)).detach().cpu())
oof = torch.cat(fold_preds)

# Per step, in the inner loop: reported.
step_preds = []
for x, y in loader:
    t_step = time.perf_counter()  # host work each step (timing, logging)
    step_preds.append(model(x.to(device)).detach().cpu())  # want: SYNC001
allp = torch.cat(step_preds)
