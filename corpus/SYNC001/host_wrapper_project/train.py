# gpuopt-env: target-gpu=h100
# The batch's index tensor and identity labels come from the project's
# loader wrapper and never leave the host: their .cpu() copies nothing.
# The validation predictions move from the GPU every step (a finding).
import time
import torch
from tqdm import tqdm

from data import BucketingDataLoader


def predict(model, dataset, device, batch_size=32):
    preds, indexes, identities = [], [], []
    with torch.no_grad():
        for batch in tqdm(BucketingDataLoader(dataset, batch_size=batch_size)):
            x_batch = batch[0]
            i_batch = batch[1]
            p_batch = model(x_batch.to(device))
            preds.append(p_batch.detach().cpu())
            indexes.append(i_batch.detach().cpu())
    return torch.cat(preds), torch.cat(indexes)


def validate(model, dataset, device):
    model.eval()
    preds, identities = [], []
    with torch.no_grad():
        for x_batch, y_identity_batch in BucketingDataLoader(dataset, batch_size=64):
            p_batch = model(x_batch.to(device))
            t_step = time.perf_counter()  # host work each step (timing, logging)
            preds.append(p_batch.detach().cpu())  # want: SYNC001
            identities.append(y_identity_batch.detach().cpu())
    return torch.cat(preds), torch.cat(identities)
