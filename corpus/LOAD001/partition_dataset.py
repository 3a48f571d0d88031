# gpuopt-env: torch=2.4
# A point-cloud dataset held in memory: __getitem__ augments only for the
# train partition. The test set's items are slices of arrays in memory,
# which workers would only pickle (blind samples S15F and S16B's DGCNN);
# the train set's augmentation is CPU work per item, which workers overlap.
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def jitter(points):
    return points + np.random.normal(0, 0.01, points.shape)


class PointClouds(Dataset):
    def __init__(self, data, labels, partition="train"):
        self.data, self.labels = data, labels
        self.partition = partition

    def __getitem__(self, i):
        points = self.data[i][:1024]
        if self.partition == "train":
            points = jitter(points)
            np.random.shuffle(points)
        return points, self.labels[i]

    def __len__(self):
        return len(self.data)


def train(model, data, labels):
    train_loader = DataLoader(PointClouds(data, labels), batch_size=32, shuffle=True)  # want: LOAD001
    opt = torch.optim.Adam(model.parameters(), fused=True)
    for epoch in range(250):
        for x, y in train_loader:
            loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
            opt.zero_grad()
            loss.backward()
            opt.step()


def test(path, data, labels):
    test_loader = DataLoader(PointClouds(data, labels, partition="test"), batch_size=32)
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3072, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 40)).cuda()
    model.load_state_dict(torch.load(path))
    model = model.eval()
    preds = []
    for x, y in test_loader:
        preds.append(model(x.cuda()).max(dim=1)[1].detach().cpu().numpy())
    return np.concatenate(preds)


if __name__ == "__main__":
    train(None, None, None)
    test("model.t7", None, None)
