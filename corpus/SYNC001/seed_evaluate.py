import time
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(16, 4).cuda()
val_loader = DataLoader(TensorDataset(torch.randn(64, 16)), batch_size=8)


# Seed 002, "长时间运行后显存泄露": the seed moves each output to the CPU on
# purpose, to free GPU memory. SYNC001 keeps them on the GPU and moves the
# concatenation once: fewer syncs, more VRAM (why the fix is unsafe).
@torch.no_grad()
def evaluate():
    model.eval()
    results = []
    for (batch,) in val_loader:
        out = model(batch.to('cuda'))
        t_step = time.perf_counter()  # host work each step (timing, logging)
        results.append(out.cpu())  # want: SYNC001
    return torch.cat(results, dim=0)
