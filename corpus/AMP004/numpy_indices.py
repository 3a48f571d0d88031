# gpuopt-env: target-gpu=h100
# The loop hands NumPy only integer tensors: the indices of torch.max and
# the loader's labels. Under autocast they stay int64, so the wrap needs no
# .float() and is offered (blind sample S14B: a change-detection trainer
# computing sklearn metrics on argmax maps).
import torch
import torchvision
from sklearn.metrics import f1_score

model = torchvision.models.resnet50(num_classes=2).cuda()
optimizer = torch.optim.AdamW(model.parameters())
criterion = torch.nn.CrossEntropyLoss()


def train(loader):
    for images, labels in loader:
        images = images.float().cuda()
        labels = labels.long().cuda()
        optimizer.zero_grad()
        preds = model(images)  # want: AMP004
        loss = criterion(preds, labels)
        loss.backward()
        optimizer.step()
        _, preds = torch.max(preds, 1)
        print(f1_score(labels.data.cpu().numpy(), preds.data.cpu().numpy()))
