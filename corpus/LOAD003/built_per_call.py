"""A prediction helper builds its own DataLoader and iterates it once; the
helper runs once per checkpoint. Every call makes a new loader with new
workers, so persistent_workers would keep nothing alive: silent. The
training loader, built once and iterated every epoch, is reported."""
import torch
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(8, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
train_set = TensorDataset(torch.randn(256, 8), torch.randn(256, 1))
train_loader = DataLoader(train_set, batch_size=32, num_workers=4, pin_memory=True)  # want: LOAD003


def predict(weights, inputs):
    model.load_state_dict(weights)
    dataset = TensorDataset(inputs)
    loader = DataLoader(dataset, batch_size=32, num_workers=4, pin_memory=True)
    preds = []
    with torch.no_grad():
        for (x,) in loader:
            preds.append(model(x.to(device, non_blocking=True)))
    return torch.cat(preds)


for epoch in range(3):
    for x, y in train_loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()

test_inputs = torch.randn(64, 8)
for weights in [model.state_dict(), model.state_dict()]:
    predict(weights, test_inputs)


# The loader built per fold and handed to an evaluation function called
# once: a new loader each fold, iterated once. Silent. The fold's training
# loader, handed to a training function every epoch, is reported.
def evaluate(loader):
    outputs = []
    with torch.no_grad():
        for (x,) in loader:
            outputs.append(model(x.to(device, non_blocking=True)))
    return torch.cat(outputs)


def train_epoch(loader):
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def run(fold):
    fold_train = DataLoader(train_set, batch_size=32, num_workers=4, pin_memory=True)  # want: LOAD003
    for epoch in range(3):
        train_epoch(fold_train)
    fold_valid = DataLoader(TensorDataset(test_inputs), batch_size=32, num_workers=4, pin_memory=True)
    return evaluate(fold_valid)


scores = []
for fold in range(5):
    scores.append(run(fold))
