# Link-prediction evaluation under a progress bar: each step appends the
# logits' host copy and the labels' host copy converted to float. This
# rule defers a copy followed only by .cpu()/.numpy()/.tolist()/.detach();
# the labels' `.cpu().to(torch.float)` would stay, so the step waits
# anyway and the logits' copy is left alone. A loop whose copies are all
# deferrable keeps the finding.
import torch
from tqdm import tqdm

device = torch.device("cuda")
model = torch.nn.Linear(64, 1).to(device)
loader = [(torch.randn(32, 64), torch.randint(2, (32,))) for _ in range(100)]


@torch.no_grad()
def evaluate():
    preds, labels = [], []
    for x, y in tqdm(loader):
        x, y = x.to(device), y.to(device)
        preds.append(model(x).view(-1).cpu())
        labels.append(y.view(-1).cpu().to(torch.float))
    return torch.cat(preds), torch.cat(labels)


@torch.no_grad()
def predict():
    preds = []
    for x, _ in tqdm(loader):
        preds.append(model(x.to(device)).view(-1).cpu())  # want: SYNC001
    return torch.cat(preds)


for round_ in range(3):
    print(evaluate(), predict())
