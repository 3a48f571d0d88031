# An averaged copy of the model (SWA) whose parameters are detached: no
# gradient trains it, and the shared step function runs it only to
# validate (blind sample S29D's BraTS U-Net). The trained model keeps its
# finding; the copy gets none.
import torch
import torch.nn as nn


def step(loader, model, optimizer):
    mode = "train" if model.training else "val"
    total = 0.0
    for x, y in loader:
        x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
        loss = nn.functional.mse_loss(model(x), y)
        if mode == "train":
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.detach()
    return float(total)


def build():
    return nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 4096), nn.GELU(), nn.Linear(4096, 1024))


def main(train_loader, val_loader, epochs):
    model = build().cuda()  # want: OPT004
    swa_model = build()
    for param in swa_model.parameters():
        param.detach_()
    swa_model = swa_model.cuda()
    optimizer = torch.optim.AdamW(model.parameters(), fused=True)
    for epoch in range(epochs):
        model.train()
        swa_model.train()
        step(train_loader, model, optimizer)
        with torch.no_grad():
            for p_swa, p in zip(swa_model.parameters(), model.parameters()):
                p_swa.mul_(0.9).add_(p, alpha=0.1)
        swa_model.eval()
        with torch.no_grad():
            step(val_loader, swa_model, optimizer)


if __name__ == "__main__":
    from data import loaders

    main(*loaders(), epochs=100)
