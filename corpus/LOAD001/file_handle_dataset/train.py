# gpuopt-env: target-gpu=h100
# The dataset reads the next line of a file handle it keeps: forked
# workers would share the handle's position (interleaved or partial
# lines) and spawned ones cannot pickle it, so LOAD001 offers no workers
# (blind sample S15H, where the fix changed the training data).
import torch
from torch.utils.data import DataLoader

from reader import LineDataset

loader = DataLoader(LineDataset("corpus.txt", 100000), batch_size=32, shuffle=False)
model = torch.nn.EmbeddingBag(64, 100).cuda()
optimizer = torch.optim.SparseAdam(model.parameters())
for epoch in range(3):
    for words in loader:
        loss = model(words.cuda()).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
