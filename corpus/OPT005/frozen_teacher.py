# A mean teacher's EMA copy, wrapped in DataParallel beside the student
# (blind sample S19F's MMT): its parameters are detached, so no optimizer
# steps it and DistributedDataParallel would refuse it (no parameter that
# requires a gradient). Only the student's wrap is reported.
import torch
from torch import nn


def create_model(num_classes):
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 64 * 64, num_classes)).cuda()
    model_ema = nn.Sequential(nn.Flatten(), nn.Linear(3 * 64 * 64, num_classes)).cuda()
    model = nn.DataParallel(model)  # want: OPT005
    model_ema = nn.DataParallel(model_ema)
    model_ema.module[1].weight.data.copy_(model.module[1].weight.data)
    for param in model_ema.parameters():
        param.detach_()
    return model, model_ema


def main(loader, epochs):
    model, model_ema = create_model(10)
    params = []
    for key, value in model.named_parameters():
        if value.requires_grad:
            params += [{"params": [value], "lr": 3.5e-4}]
    optimizer = torch.optim.Adam(params, fused=True)
    for epoch in range(epochs):
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            loss = nn.functional.cross_entropy(model(x), y) + (model(x) - model_ema(x)).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            with torch.no_grad():
                for ema, cur in zip(model_ema.parameters(), model.parameters()):
                    ema.mul_(0.999).add_(cur, alpha=0.001)
