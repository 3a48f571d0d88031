# The epoch function of a Kaggle project: each loader is wrapped in a
# progress bar bound to one name, which the next loop rebinds.
import torch
from tqdm import tqdm

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def train_one_epoch(model, train_dl, valid_dl, loss_fn, optim):
    model.train()
    loop = tqdm(train_dl)
    for i, (xb, yb) in enumerate(loop):
        loss = loss_fn(model(xb.to(device)), yb.to(device))
        optim.zero_grad()
        loss.backward()
        optim.step()
    model.eval()
    loop = tqdm(valid_dl)
    with torch.no_grad():
        for i, (xb, yb) in enumerate(loop):
            loss_fn(model(xb.to(device)), yb.to(device))
