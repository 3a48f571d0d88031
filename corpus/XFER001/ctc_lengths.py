"""CTC lengths built on the CPU and moved to the GPU every step: ctc_loss
reads its lengths on the host, so the move costs a copy each way; the
advice is to leave them on the CPU, not to build them on the GPU. A
lengths tensor also used in arithmetic on the GPU keeps the usual advice."""
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda")
model = nn.GRU(256, 256, num_layers=2, bidirectional=True).to(device)
head = nn.Linear(512, 37).to(device)
ctc = nn.CTCLoss(blank=0)
optimizer = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), fused=True)


def train(loader):
    for frames, targets, target_lengths in loader:
        frames, targets = frames.to(device), targets.to(device)
        out, _ = model(frames)
        log_probs = F.log_softmax(head(out), 2)
        input_lengths = torch.full((frames.size(1),), frames.size(0), dtype=torch.long).to(device)  # want: XFER001
        loss = ctc(log_probs, targets, input_lengths, target_lengths)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_weighted(loader):
    for frames, targets, target_lengths in loader:
        frames, targets = frames.to(device), targets.to(device)
        out, _ = model(frames)
        log_probs = F.log_softmax(head(out), 2)
        lengths = torch.full((frames.size(1),), frames.size(0), dtype=torch.long).to(device)  # want: XFER001
        loss = F.ctc_loss(log_probs, targets, lengths, target_lengths, reduction="none")
        loss = (loss / lengths).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
