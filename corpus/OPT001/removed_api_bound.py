# Fields and bucket iterators from torchtext.data, which torchtext 0.9
# (torch 1.8) moved to torchtext.legacy: this script runs only on torch
# 1.7 or older, whatever it pins (it pins nothing), so no advice needs a
# newer torch: no fused=True (a TypeError before 1.13 on these
# optimizers), and zero_grad still writes zeros there (OPT002 applies).
import torch
from torch import nn
from torchtext import data

TEXT = data.Field(lower=True, batch_first=True)
LABEL = data.LabelField()
train_set = data.TabularDataset("train.csv", format="csv", fields=[("text", TEXT), ("label", LABEL)])
TEXT.build_vocab(train_set)
LABEL.build_vocab(train_set)
train_iter = data.BucketIterator(train_set, batch_size=64, device=torch.device("cuda"))

model = nn.Sequential(nn.EmbeddingBag(len(TEXT.vocab), 256), nn.Linear(256, len(LABEL.vocab))).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(10):
    for batch in train_iter:
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(batch.text), batch.label)
        loss.backward()
        optimizer.step()
