# one_sample_per_step.py over padded batches of 32 scenes: the shapes are
# fixed, and the hint stays.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def train(scenes, padded, epochs=50):
    model = nn.TransformerEncoder(nn.TransformerEncoderLayer(d_model=512, nhead=8, batch_first=True), num_layers=6).cuda()  # want: OPT004
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    loader = DataLoader(scenes, batch_size=32, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True)
    for epoch in range(epochs):
        for nodes, target in loader:
            nodes = nodes.cuda(non_blocking=True)
            target = target.cuda(non_blocking=True)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = (model(nodes) - target).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
