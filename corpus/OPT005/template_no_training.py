# A fine-tuning template: train() builds the model, loads the pretrained
# weights and wraps it, and stops there (the training is left to the
# user). Nothing trains in this file and the wrapped model never leaves
# the function: no finding. (A builder that returns the wrap keeps it.)
import torch
import torch.nn as nn


class Transfer(nn.Module):
    def __init__(self, classes):
        super().__init__()
        self.base = nn.Sequential(nn.Conv2d(1, 64, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(64, classes)

    def forward(self, x):
        return self.head(self.base(x))


def train(args):
    model = Transfer(args.classes)
    model.base.load_state_dict(torch.load(args.pretrained))
    model = torch.nn.DataParallel(model)
    if torch.cuda.is_available():
        model.to("cuda")
    print("Load pretrained model successfully!")


def build(args):
    model = Transfer(args.classes)
    return torch.nn.DataParallel(model).cuda()  # want: OPT005
