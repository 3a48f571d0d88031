# Training wraps the model in DataParallel (reported); sampling wraps it
# only so that the checkpoint saved from the wrapper, with its `module.`
# keys, loads with strict=True. DDP is training advice: no finding there.
import torch
import torch.nn as nn

device = torch.device("cuda")


def train(loader):
    model = nn.Sequential(nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 1024)).to(device)
    model = nn.DataParallel(model)  # want: OPT005
    opt = torch.optim.Adam(model.parameters())
    for x in loader:
        loss = model(x.to(device)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save(model.state_dict(), "ckpt.pth")


def sample(n):
    model = nn.Sequential(nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 1024)).to(device)
    model = nn.DataParallel(model)
    model.load_state_dict(torch.load("ckpt.pth"), strict=True)
    model.eval()
    with torch.no_grad():
        return model(torch.randn(n, 1024, device=device))


# A worker that may resume from a checkpoint, then trains through train()
# every epoch: training, reported.
def train_one_epoch(loader, model, opt):
    for x in loader:
        loss = model(x.to(device)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def main_worker(loader, resume):
    model = nn.Sequential(nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 1024)).to(device)
    model = nn.DataParallel(model)  # want: OPT005
    if resume:
        model.load_state_dict(torch.load(resume))
    opt = torch.optim.Adam(model.parameters())
    for epoch in range(10):
        train_one_epoch(loader, model, opt)
