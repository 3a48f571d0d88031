# A script whose whole training sits under a flag its user switches on by
# hand (blind sample S38Q's colorizer: `run = False  # Training flag`):
# with no other path to take, that branch is the job, and its optimizer
# is reported (a branch with an else, a choice between two paths, is
# read as switched off: module_flag_none.py).
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 10)).cuda()
run = False  # Training flag
if run == True:
    for epoch in range(100):
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)  # want: OPT001
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
