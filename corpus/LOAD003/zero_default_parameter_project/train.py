import torch
import torch.nn as nn

from data import get_dataloaders


class Config:
    num_workers = 0
    batch_size = 32


def main(cfg=Config()):
    train_loader, val_loader = get_dataloaders("sst.npy", batch_size=cfg.batch_size, num_workers=cfg.num_workers)
    model = nn.GRU(64, 256, batch_first=True).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    for epoch in range(100):
        for x, y in train_loader:
            out, _ = model(x.cuda())
            loss = (out[..., :64] - y.cuda()).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            for x, y in val_loader:
                model(x.cuda())


if __name__ == "__main__":
    main()
