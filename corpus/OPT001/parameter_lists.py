import torch
from torch import nn


def weight_decay_groups(model, wd):
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (no_decay if name.endswith("bias") else decay).append(p)
    return [{"params": decay, "weight_decay": wd}, {"params": no_decay, "weight_decay": 0.0}]


encoder = nn.Linear(16, 8).cuda()
decoder = nn.Linear(8, 16).cuda()
# The parameters of two models in one list.
params = list(decoder.parameters()) + list(encoder.parameters())
opt = torch.optim.Adam(params, lr=1e-3)  # want: OPT001

# Parameter groups built from the model by a helper.
head = nn.Linear(8, 2).cuda()
groups = weight_decay_groups(head, 0.05)
head_opt = torch.optim.AdamW(groups, lr=1e-3)  # want: OPT001

# A literal parameter group of a CUDA model.
dict_opt = torch.optim.Adam([{"params": head.parameters(), "lr": 1e-4}])  # want: OPT001

# Groups drawn from a list of named parameters (the BERT fine-tuning idiom).
param_optimizer = list(head.named_parameters())
no_decay = ["bias"]
grouped = [
    {"params": [p for n, p in param_optimizer if not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
    {"params": [p for n, p in param_optimizer if any(nd in n for nd in no_decay)], "weight_decay": 0.0},
]
bert_opt = torch.optim.AdamW(grouped, lr=3e-5)  # want: OPT001



def head_only_groups(finetune_head_only):
    # The same list chosen on two branches, both from one CUDA model.
    net = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 2))
    net = net.cuda()
    if finetune_head_only:
        named = [(n, p) for n, p in net.named_parameters() if "bias" not in n]
    else:
        named = list(net.named_parameters())
    groups = [{"params": [p for n, p in named], "weight_decay": 0.0}]
    return torch.optim.Adam(groups)  # want: OPT001
