# gpuopt-env: target-gpu=h100
# The model is built, given pretrained weights by key (model.load_state_dict),
# then trained by fit_one_epoch() of utils_fit.py. Compiling it first would
# prefix every key with _orig_mod.: the finding offers no compile line.
import torch

from utils_fit import fit_one_epoch


def main(loader, path):
    model = torch.nn.Sequential(torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10))  # want: OPT004
    model_dict = model.state_dict()
    pretrained = {k: v for k, v in torch.load(path).items() if k in model_dict}
    model_dict.update(pretrained)
    model.load_state_dict(model_dict)
    model = model.cuda()
    optimizer = torch.optim.Adam(model.parameters(), fused=True)
    for epoch in range(10):
        fit_one_epoch(model, loader, optimizer)
