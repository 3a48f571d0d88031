# gpuopt-env: target-gpu=h100
# Video classification: each sample is a clip of selected frames, so a
# batch of 30 clips is 840 frames through the 3D convolutions; the table's
# 512 counts images. No MEM005.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

begin_frame, end_frame, skip_frame = 1, 29, 1
selected_frames = list(range(begin_frame, end_frame, skip_frame))
batch_size = 30

model = nn.Sequential(nn.Conv3d(3, 32, 3), nn.ReLU(), nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Linear(32, 101)).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)


def train(dataset):
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True)
    for epoch in range(15):
        for clips, labels in loader:
            clips, labels = clips.cuda(non_blocking=True), labels.cuda(non_blocking=True)
            loss = nn.functional.cross_entropy(model(clips), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
