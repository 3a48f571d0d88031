# The counted value is computed on the host: the predictions are copied
# with .cpu() and compared with the loader's CPU labels, so .item() waits
# for nothing (the copy did; blind sample S17F's linear evaluation). A
# plain `.cpu().item()` of the loss is still reported: accumulating on
# the device removes that copy.
import torch
from torch import nn

encoder = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU()).cuda().eval()
classifier = nn.Linear(4096, 10).cuda()
optimizer = torch.optim.Adam(classifier.parameters(), fused=True)


def train_epoch(loader):
    correct, total_loss = 0, 0.0
    for images, labels in loader:
        with torch.no_grad():
            feats = encoder(images.cuda())
        logits = classifier(feats)
        loss = nn.functional.cross_entropy(logits, labels.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        pred = logits.argmax(dim=1)
        correct += (pred.cpu() == labels).sum().item()
        total_loss += loss.cpu().item()  # want: SYNC002
    return correct, total_loss


def train_epoch_method_form(loader):
    # The same comparison written as a method (blind sample S22J).
    correct = 0
    for images, labels in loader:
        with torch.no_grad():
            feats = encoder(images.cuda())
        logits = classifier(feats)
        loss = nn.functional.cross_entropy(logits, labels.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        pred = logits.argmax(dim=1, keepdim=True)
        correct += pred.cpu().eq(labels.view_as(pred)).sum().item()
    return correct


for epoch in range(100):
    print(train_epoch(train_loader))
    print(train_epoch_method_form(train_loader))
