"""Feature extraction for the face-verification benchmarks."""
import numpy as np
import torch


def get_features(path, net, device, dataset, loader):
    features = []
    with torch.no_grad():
        for data in loader:
            features.append(net(data[0].to(device)).cpu().numpy())
    np.save(path, np.concatenate(features))
