# AdamW divides each gradient by a running estimate of its own scale: a
# loss that is not divided by the accumulation steps leaves the update
# unchanged (but for eps), so without clipping nothing is reported (blind
# sample S17F's BERT loops). With clip_grad_norm_ the clip sees the
# accumulated norm, k times too large: reported, saying so.
import torch
from torch import nn

model = nn.Linear(768, 30).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5, fused=True)
accumulation_steps = 4


def train(loader):
    for step, (x, y) in enumerate(loader):
        loss = nn.functional.binary_cross_entropy_with_logits(model(x.cuda()), y.cuda())
        loss.backward()
        if (step + 1) % accumulation_steps == 0:
            optimizer.step()
            optimizer.zero_grad()


def train_clipped(loader):
    for step, (x, y) in enumerate(loader):
        loss = nn.functional.binary_cross_entropy_with_logits(model(x.cuda()), y.cuda())
        loss.backward()  # want: MEM002
        if (step + 1) % accumulation_steps == 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad()
