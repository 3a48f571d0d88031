# A comparison run switched off in place (blind sample S21I's malaria
# classifier): `train_standard_model = False` then `if
# train_standard_model:`. The branch never runs, so nothing in it is
# reported or rewritten. A flag that a later pass of a loop sets, and a
# switch at module level (the user's to flip), keep their findings.
import torch

TRAIN_BASELINE = False


def main(loader):
    model = torch.nn.Linear(4096, 4096).cuda()
    opt = torch.optim.Adam(model.parameters(), fused=True)
    train_standard_model = False
    if train_standard_model:
        baseline = torch.nn.Linear(4096, 4096).cuda()
        baseline_opt = torch.optim.Adam(baseline.parameters())
    if TRAIN_BASELINE:
        other = torch.nn.Linear(4096, 4096).cuda()
        other_opt = torch.optim.Adam(other.parameters())  # want: OPT001
    warmed_up = False
    for x in loader:
        if warmed_up:
            late_opt = torch.optim.Adam(model.parameters())  # want: OPT001
        warmed_up = True
        loss = model(x.cuda()).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
