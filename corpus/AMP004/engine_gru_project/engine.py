# gpuopt-env: target-gpu=h100
# An engine module whose network arrives as a parameter: train.py builds
# it from model.py, whose OCR head runs an nn.GRU. cuDNN's recurrent
# layers run in fp16 under any autocast, so the advice is fp16 with a
# GradScaler, not bf16, as where the script builds the network itself.
import torch


def train(model, loader, optimizer):
    model.train()
    total = 0.0
    for batch in loader:
        batch = {k: v.to("cuda") for k, v in batch.items()}
        optimizer.zero_grad()
        _, loss = model(**batch)  # want: AMP004
        loss.backward()
        optimizer.step()
        total += loss.detach()
    return total
