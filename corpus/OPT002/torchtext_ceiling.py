# The legacy torchtext iterators say the code runs on torch before 1.8,
# but not how old: set_to_none arrived in 1.7, and a seq2seq of this era
# ran on torch 0.4, where the keyword raises TypeError (blind sample
# S18J). Without a pin, OPT002 says nothing.
import torch
from torchtext.data import BucketIterator, Field

SRC = Field(tokenize=str.split)
model = torch.nn.GRU(128, 128).cuda()
optimizer = torch.optim.Adam(model.parameters())
train_iter = BucketIterator(None, batch_size=32)
for epoch in range(10):
    for batch in train_iter:
        model.zero_grad()
        out, _ = model(batch.src)
        out.sum().backward()
        optimizer.step()
