# The checkpoint code tests the scaler's class: torch.cuda.amp.GradScaler is
# a subclass of torch.amp.GradScaler, so after a rename the test would be
# False and the scaler state silently left out. Reported, not rewritten.
import torch

scaler = torch.cuda.amp.GradScaler(enabled=True)  # want: AMP002


def save(path):
    state = {}
    if isinstance(scaler, torch.cuda.amp.GradScaler):
        state["scaler"] = scaler.state_dict()
    torch.save(state, path)
