# The loader reaches the loop through `with tqdm(loader) as pbar:` and
# `enumerate(pbar)`, and the batch through a pre-0.4 Variable(...): it is
# still the pinned loader's batch.
import torch
import torch.nn as nn
from torch.autograd import Variable
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm


def main(epochs=100):
    model = nn.Sequential(nn.Conv2d(3, 256, 3, padding=1), nn.ReLU(), nn.Conv2d(256, 3, 3, padding=1)).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    data = TensorDataset(torch.randn(512, 3, 64, 64), torch.randn(512, 3, 64, 64))
    train_loader = DataLoader(data, batch_size=8, shuffle=True, num_workers=8, pin_memory=True)
    for epoch in range(epochs):
        with tqdm(train_loader, ncols=100) as pbar:
            for idx, batch in enumerate(pbar):
                gt, lq = Variable(batch[0]), Variable(batch[1])
                gt = gt.to("cuda:0")  # want: XFER002
                lq = lq.to("cuda:0")  # want: XFER002
                loss = (model(lq) - gt).abs().mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                pbar.set_postfix(epoch=epoch)


if __name__ == "__main__":
    main()
