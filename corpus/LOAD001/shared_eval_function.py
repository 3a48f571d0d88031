# gpuopt-env: target-gpu=h100
# One evaluation function for two loaders: the dev loader, evaluated every
# epoch, and the test loader, evaluated once after training
# (blind sample S27F's SimCSE). Only the calls that pass a loader say how
# often it is read: the dev and training loaders are reported, the test
# loader, one pass at the end of the run, is not.
import torch
from torch.utils.data import DataLoader, Dataset


class Pairs(Dataset):
    def __init__(self, pairs, tokenizer):
        self.pairs, self.tokenizer = pairs, tokenizer

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, i):
        return self.tokenizer(self.pairs[i], padding="max_length", max_length=64, truncation=True, return_tensors="pt")


def evaluate(model, loader):
    model.eval()
    scores = []
    with torch.no_grad():
        for batch in loader:
            scores.append(model(batch["input_ids"].squeeze(1).cuda()).mean())
    model.train()
    return torch.stack(scores).mean()


def main(model, tokenizer, train_pairs, dev_pairs, test_pairs):
    train_loader = DataLoader(Pairs(train_pairs, tokenizer), batch_size=64, shuffle=True)  # want: LOAD001
    dev_loader = DataLoader(Pairs(dev_pairs, tokenizer), batch_size=64)  # want: LOAD001
    test_loader = DataLoader(Pairs(test_pairs, tokenizer), batch_size=64)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5, fused=True)
    for epoch in range(3):
        for step, batch in enumerate(train_loader):
            loss = model(batch["input_ids"].squeeze(1).cuda()).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(evaluate(model, dev_loader))
    print(evaluate(model, test_loader))
