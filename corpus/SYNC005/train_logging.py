import logging

import numpy as np
import torch
import wandb
from loguru import logger as log
from torch import nn
from torch.utils.data import DataLoader
from torch.utils.tensorboard import SummaryWriter

device = torch.device("cuda")
model = nn.Linear(16, 4).to(device)
criterion = nn.MSELoss()
optimizer = torch.optim.AdamW(model.parameters())
loader = DataLoader(list(range(10)), batch_size=2)
logger = logging.getLogger(__name__)
writer = SummaryWriter()
run = wandb.init(project="demo")


# One loop per logging form: a step that logs several times is reported
# once, at its first log (the others wait for nothing new).
def train():
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"step {step}: loss {loss.item():.4f}")  # want: SYNC005
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        print("loss", loss)  # want: SYNC005
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        logging.info("loss %.4f", loss.item())  # want: SYNC005
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        logger.info("loss=%s" % loss)  # want: SYNC005
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        log.info(f"{loss:.3f}")  # want: SYNC005
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        writer.add_scalar("train/loss", loss, step)  # want: SYNC005
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        wandb.log({"loss": loss.item(), "step": step})  # want: SYNC005
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        run.log({"loss": loss})  # want: SYNC005
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        print(  # want: SYNC005
            "lr {} loss {}".format(optimizer.param_groups[0]["lr"], float(loss))
        )
    for step, (x, y) in enumerate(loader):
        loss = criterion(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"step {step}: loss {loss.item():.4f}")  # want: SYNC005
        wandb.log({"loss": loss.item(), "step": step})


def evaluate():
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            acc = (model(x.cuda()).argmax(1) == y.cuda()).float().mean()
            print("batch accuracy", acc.tolist())  # want: SYNC005
