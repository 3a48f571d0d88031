# Factories in code that runs every few steps (blind sample S33AJ's
# simple-clip): a logging block under `if global_step % log_every == 0:`
# and a validation function called only under such a guard build their
# label ranges on the CPU, but a copy every 50 or 500 steps is not worth
# a rewrite. Silent. The same range in the loss, every step, is
# reported; so is one under `step % 2` (every other step).
import torch
import torch.nn.functional as F


def clip_loss(logits):
    labels = torch.arange(logits.size(0)).to(logits.device)  # want: XFER001
    return F.cross_entropy(logits, labels)


def validate(model, loader, device):
    model.eval()
    with torch.no_grad():
        for batch in loader:
            logits = model(batch.to(device))
            labels = torch.arange(logits.size(0)).to(device)
            print((logits.argmax(1) == labels).float().mean().item())


def train(model, optimizer, loader, val_loader, device, log_every=50):
    global_step = 0
    for epoch in range(100):
        for batch in loader:
            logits = model(batch.to(device))
            loss = clip_loss(logits)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            global_step += 1
            if global_step % 2 == 0:
                ones = torch.ones(logits.size(0)).to(device)  # want: XFER001
                print((logits.sum(1) * ones).mean())
            if global_step % log_every == 0:
                labels = torch.arange(logits.size(0)).to(logits.device)
                print((logits.argmax(1) == labels).float().mean().item())
            if global_step % (log_every * 10) == 0:
                validate(model, val_loader, device)
