# A resume branch under a module-level name the script sets to None and
# never rebinds (blind sample S38AA's fire segmenter): the branch never
# runs, so its optimizer gets no advice; the one the script builds does.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 10)).cuda()
resume_from = None
if resume_from:
    state = torch.load(resume_from)
    model.load_state_dict(state["model"])
    optimizer = torch.optim.Adam(model.parameters())
    optimizer.load_state_dict(state["optimizer"])
else:
    optimizer = torch.optim.Adam(model.parameters())  # want: OPT001
for epoch in range(100):
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
