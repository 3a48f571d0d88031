# The script imports cPickle, a Python 2 module, outside a try: it runs on
# Python 2, so on PyTorch 1.4 or older, whose optimizers take no fused=
# (blind sample S16N's NER-pytorch got fused=True, a TypeError there).
from __future__ import print_function

import cPickle

import torch

model = torch.nn.Linear(100, 10).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for x, y in loader:
    loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
cPickle.dump(model.state_dict(), open("model.pkl", "wb"))
