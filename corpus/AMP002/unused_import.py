# An inference script that imports GradScaler beside autocast and never
# builds one (blind sample S21Q's retrieval embedder): the deprecation
# warns when the class is called, so the unused name is not reported.
# (autocast, which runs, is AMP001's.)
import torch
from torch.cuda.amp import GradScaler
from torch.cuda.amp import autocast

model = torch.nn.Linear(768, 768).cuda().eval()
with torch.no_grad(), autocast():
    emb = model(torch.randn(32, 768, device="cuda"))
