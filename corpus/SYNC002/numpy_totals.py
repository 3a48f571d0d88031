# Running totals read through NumPy every training step (ProteinMPNN's and
# Struct2Seq's `+= torch.sum(...).cpu().data.numpy()`, blind sample S33I's
# misses), or as a CPU tensor (`+= loss.detach().cpu()`, S33AU's
# meshgraphnets): each copy waits for the GPU as .item() does. Reported, with no
# fix (the totals are NumPy values the code may hand on). The same totals
# in the evaluation pass after each epoch stay silent, as float() there
# does.
import torch
import torch.nn as nn


def run(model, optimizer, train_loader, valid_loader, device="cuda"):
    for epoch in range(100):
        model.train()
        train_sum, train_acc, train_weights = 0.0, 0.0, 0.0
        trajectory_loss = 0.0
        for x, y, mask in train_loader:
            x, y, mask = x.to(device), y.to(device), mask.to(device)
            print(f"batch of {len(x)} sequences")
            log_probs = model(x)
            loss = nn.functional.nll_loss(log_probs.transpose(1, 2), y, reduction="none")
            optimizer.zero_grad()
            (loss * mask).sum().div(mask.sum()).backward()
            optimizer.step()
            train_sum += torch.sum(loss * mask).cpu().data.numpy()  # want: SYNC002
            train_acc += torch.sum((log_probs.argmax(-1) == y) * mask).detach().cpu().numpy()  # want: SYNC002
            train_weights += torch.sum(mask).cpu().numpy()  # want: SYNC002
            trajectory_loss += loss.mean().detach().cpu()  # want: SYNC002
        model.eval()
        with torch.no_grad():
            valid_sum, valid_weights = 0.0, 0.0
            for x, y, mask in valid_loader:
                x, y, mask = x.to(device), y.to(device), mask.to(device)
                loss = nn.functional.nll_loss(model(x).transpose(1, 2), y, reduction="none")
                valid_sum += torch.sum(loss * mask).cpu().data.numpy()
                valid_weights += torch.sum(mask).cpu().data.numpy()
        print(epoch, train_sum / train_weights, train_acc / train_weights, valid_sum / valid_weights, trajectory_loss)
