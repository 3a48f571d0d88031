import torch
from tqdm import tqdm


def train_fn(data_loader, model, optimizer, device):
    model.train()
    for step, batch in tqdm(enumerate(data_loader), total=len(data_loader)):
        x = batch["x"].to(device)
        y = batch["y"].to(device)
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
