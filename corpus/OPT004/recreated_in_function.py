# gpuopt-env: target-gpu=h100
# A Kaggle fold function: it builds the model, trains it over the epochs
# (train_fn holds the loop), saves the best weights, then builds the model
# again to load them and predict. The finding belongs to the model that is
# trained, not to the one rebuilt for inference (blind sample WW).
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, n_features, n_targets, hidden=1024):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, n_targets))

    def forward(self, x):
        return self.net(x)


def train_fn(model, optimizer, loss_fn, dataloader):
    model.train()
    for x, y in dataloader:
        x, y = x.cuda(), y.cuda()
        loss = loss_fn(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def inference_fn(model, dataloader):
    model.eval()
    with torch.no_grad():
        return [model(x.cuda()).sigmoid().cpu() for x in dataloader]


def run_training(fold, trainloader, testloader):
    model = Model(875, 206).cuda()  # want: OPT004
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    for epoch in range(25):
        train_fn(model, optimizer, nn.BCEWithLogitsLoss(), trainloader)
    torch.save(model.state_dict(), f"fold{fold}.pth")

    model = Model(875, 206).cuda()
    model.load_state_dict(torch.load(f"fold{fold}.pth"))
    return inference_fn(model, testloader)
