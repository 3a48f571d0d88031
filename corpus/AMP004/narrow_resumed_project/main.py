import os

import torch
from torch.utils.data import DataLoader

import engine
import nets


def main(dataset, best_path):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if os.path.isfile(best_path):
        model = torch.load(best_path)
    else:
        model = nets.Net().float()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True)
    for epoch in range(100):
        engine.train(loader, model, optimizer, device)
