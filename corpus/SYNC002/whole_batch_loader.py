# An evaluation loader whose batch is its whole dataset
# (`batch_size=len(dev_dataset)`, cnn-text-classification's dev and test
# iterators): its loop runs once per evaluation, so its .item() calls
# are one sync each, not one per step. The training loop's are reported.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


def evaluate(model, data_iter):
    model.eval()
    corrects, avg_loss = 0, 0
    with torch.no_grad():
        for feature, target in data_iter:
            feature, target = feature.cuda(), target.cuda()
            logit = model(feature)
            avg_loss += F.cross_entropy(logit, target, reduction="sum").item()
            corrects += (logit.argmax(1) == target).sum().item()
    return corrects, avg_loss


def train(model, train_dataset, dev_dataset, epochs):
    model = torch.compile(model.cuda())
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    train_iter = DataLoader(train_dataset, batch_size=64, shuffle=True, num_workers=4, pin_memory=True, persistent_workers=True)
    dev_iter = DataLoader(dev_dataset, batch_size=len(dev_dataset), shuffle=False)
    for epoch in range(epochs):
        total = 0.0
        for feature, target in train_iter:
            feature, target = feature.cuda(non_blocking=True), target.cuda(non_blocking=True)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = F.cross_entropy(model(feature), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()  # want: SYNC002
        print(epoch, total, evaluate(model, dev_iter))
