# Embedding passes of a code-search evaluation, run every epoch (blind sample S32O's
# AutoAdapt): each step is the forward and the copy of its output, with
# no host work to overlap, so one large copy after the loop gains nothing
# (0.63x measured on large outputs): silent. The same pass under a
# progress bar redraws it every step and keeps the finding.
import numpy as np
import torch
from tqdm import tqdm


def encode(model, query_loader, code_loader, device):
    model.eval()
    nl_vecs, code_vecs = [], []
    for batch in query_loader:
        with torch.no_grad():
            nl_vecs.append(model(batch[0].to(device)).cpu().numpy())
    for batch in tqdm(code_loader, desc="codes"):
        with torch.no_grad():
            code_vecs.append(model(batch[0].to(device)).cpu().numpy())  # want: SYNC001
    return np.concatenate(nl_vecs), np.concatenate(code_vecs)


model = torch.nn.Sequential(torch.nn.Linear(768, 3072), torch.nn.GELU(), torch.nn.Linear(3072, 768)).cuda()
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(4096, 768)), batch_size=256)
for epoch in range(10):
    encode(model, loader, loader, "cuda")
