# gpuopt-env: target-gpu=h100
import torch
from torch.utils.data import DataLoader

import engine
from model import ReaderNet


def run(train_set):
    torch.backends.cudnn.benchmark = True
    torch.set_float32_matmul_precision("high")
    loader = DataLoader(train_set, batch_size=256, shuffle=True, num_workers=8, pin_memory=True, persistent_workers=True)
    model = ReaderNet(n_chars=36)
    model = model.to("cuda")
    model = torch.compile(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4, fused=True)
    for epoch in range(30):
        engine.train(model, loader, optimizer)


if __name__ == "__main__":
    run(None)
