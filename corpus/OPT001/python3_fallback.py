# cPickle imported under try, with Python 3's pickle as the fallback: the
# script runs on Python 3, and the optimizer is reported.
try:
    import cPickle as pickle
except ImportError:
    import pickle

import torch

model = torch.nn.Linear(100, 10).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)  # want: OPT001
for x, y in loader:
    loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
pickle.dump(model.state_dict(), open("model.pkl", "wb"))
