# The dataset class comes from a module of the project imported as `from
# utils import motion as datasets`, and its __getitem__ only indexes
# arrays loaded in __init__: workers would add start-up and pickling for
# nothing, so num_workers=0 stays (blind sample S24F's HisRepItself).
import torch
from torch.utils.data import DataLoader

from utils import motion as datasets


def main():
    model = torch.nn.Sequential(torch.nn.Linear(99, 512), torch.nn.ReLU(), torch.nn.Linear(512, 99)).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    loader = DataLoader(datasets.Sequences("train.npz"), batch_size=32, shuffle=True, num_workers=0)
    for epoch in range(50):
        for poses in loader:
            poses = poses.cuda().flatten(2)
            loss = (model(poses[:, :-1]) - poses[:, 1:]).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
