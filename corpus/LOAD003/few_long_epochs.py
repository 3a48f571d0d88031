"""A BERT fine-tune for the recipe's 10 epochs over tens of thousands of
reviews: each epoch is thousands of heavy steps, and one worker restart per
epoch is well under 1% (blind samples judged LOAD003 false on such
scripts). A small network's 10 epochs are short and keep the finding."""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader
from transformers import BertModel

from data import ReviewDataset

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=10)
args = parser.parse_args()


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.bert = BertModel.from_pretrained("bert-base-uncased")
        self.head = nn.Linear(768, 1)

    def forward(self, ids, mask):
        return self.head(self.bert(ids, attention_mask=mask).pooler_output)


def fine_tune():
    model = Classifier().cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-5)
    loader = DataLoader(ReviewDataset("train.csv"), batch_size=8, shuffle=True, num_workers=1, pin_memory=True)
    for epoch in range(1, args.epochs + 1):
        for ids, mask, y in loader:
            loss = nn.functional.binary_cross_entropy_with_logits(model(ids.cuda(), mask.cuda()).squeeze(1), y.cuda())
            opt.zero_grad()
            loss.backward()
            opt.step()


def small():
    model = nn.Sequential(nn.Linear(784, 400), nn.ReLU(), nn.Linear(400, 10)).cuda()
    opt = torch.optim.Adam(model.parameters())
    loader = DataLoader(ReviewDataset("digits.csv"), batch_size=128, shuffle=True, num_workers=1, pin_memory=True)  # want: LOAD003
    for epoch in range(args.epochs):
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
            opt.zero_grad()
            loss.backward()
            opt.step()
