# An export loop: the features are copied to the host every step and
# written to an HDF5 file every 2048 samples, a copy that must stay. The
# loss copy beside it is then no extra wait: silent (blind sample S20B).
# The same loss copy in a loop without such a flush is reported.
import time
import h5py
import numpy as np
import torch


def export(model, loader, batch_size):
    features, losses, n = [], [], 0
    with torch.no_grad():
        for i, points in enumerate(loader):
            points = points.cuda()
            output, feature = model(points)
            features.append(feature.cpu().numpy())
            if (i + 1) * batch_size % 2048 == 0:
                with h5py.File(f"train{n}.h5", "w") as f:
                    f["data"] = np.concatenate(features, axis=0)
                features, n = [], n + 1
            losses.append(model.get_loss(points, output).cpu().numpy())
    print(np.mean(losses))


def evaluate(model, loader):
    losses = []
    with torch.no_grad():
        for points in loader:
            points = points.cuda()
            output, _ = model(points)
            t_step = time.perf_counter()  # host work each step (timing, logging)
            losses.append(model.get_loss(points, output).cpu().numpy())  # want: SYNC001
    print(np.mean(losses))
