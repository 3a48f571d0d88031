import torch

from data import get_eval_loader, get_loader


def train(model, train_set, val_set, epochs):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    train_loader = get_loader(train_set, 64)
    val_loader = get_eval_loader(val_set, 256, num_workers=0)
    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            for x, y in val_loader:
                model(x.to(device))
