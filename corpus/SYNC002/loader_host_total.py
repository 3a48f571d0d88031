# A VQA evaluation counts the best possible score from the answer batch
# the loader hands over, which the loop never moves (only `a.cuda()` goes
# to the scoring helper: blind sample S17K's BAN-VQA): that .item() waits
# for nothing. The score computed on the GPU is not reported either: an
# evaluation pass over a DataLoader (the parameter's name says one), where
# accumulating on the device measured 1.00x (blind samples S38E, S38M).
import torch
from torch import nn

model = nn.Sequential(nn.Linear(2048, 4096), nn.ReLU(), nn.Linear(4096, 3129)).cuda().eval()


@torch.no_grad()
def evaluate(dataloader):
    score = 0.0
    upper_bound = 0.0
    for v, a in dataloader:
        pred = model(v.cuda())
        batch_score = (pred.argmax(1, keepdim=True) == a.cuda().argmax(1, keepdim=True)).float().sum()
        score += batch_score.item()
        upper_bound += (a.max(1)[0]).sum().item()
    return score / len(dataloader.dataset), upper_bound / len(dataloader.dataset)


for epoch in range(20):
    print(evaluate(val_loader))
