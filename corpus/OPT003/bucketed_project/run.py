# A character CNN fed by torchtext's BucketIterator, built in the
# project's data module: batches are bucketed by length, so their shapes
# change nearly every batch and cudnn.benchmark would time new algorithms
# for each. No OPT003.
import torch
import torch.nn as nn

from data import SQuAD

dataset = SQuAD(".data/squad", 60, torch.device("cuda"))
char_cnn = nn.Conv2d(1, 100, (8, 5)).cuda()
optimizer = torch.optim.Adadelta(char_cnn.parameters(), lr=0.5)
for epoch in range(12):
    for batch in dataset.train_iter:
        loss = char_cnn(batch.c_char.unsqueeze(1).float()).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
