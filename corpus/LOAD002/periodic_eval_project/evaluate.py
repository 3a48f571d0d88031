import numpy as np
import torch


def features(net, device, data_loader):
    out = []
    for data in data_loader:
        with torch.no_grad():
            out.append(net(data.to(device)).cpu().numpy())
    return np.concatenate(out)
