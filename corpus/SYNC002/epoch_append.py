# The step appends its loss every batch; after the validation loop, the
# epoch loop appends the epoch's validation loss once (TabSurvey's
# basemodel): that .item() runs once per epoch, not per step, and is
# left alone.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

loss_func = nn.MSELoss()


def fit(model, train_set, val_set, epochs):
    model = torch.compile(model.cuda())
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)
    train_loader = DataLoader(train_set, batch_size=512, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True)
    val_loader = DataLoader(val_set, batch_size=512, num_workers=4, pin_memory=True, persistent_workers=True)
    loss_history, val_loss_history = [], []
    for epoch in range(epochs):
        for x, y in train_loader:
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = loss_func(model(x.cuda(non_blocking=True)).squeeze(), y.cuda(non_blocking=True))
            loss_history.append(loss.item())  # want: SYNC002
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        val_loss, val_dim = 0.0, 0
        with torch.no_grad():
            for x, y in val_loader:
                with torch.autocast("cuda", dtype=torch.bfloat16):
                    val_loss += loss_func(model(x.cuda(non_blocking=True)).squeeze(), y.cuda(non_blocking=True))
                val_dim += 1
        val_loss /= val_dim
        val_loss_history.append(val_loss.item())
    return loss_history, val_loss_history
