import torch
from torch import nn, optim

device = torch.device("cuda")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc(x)


model = Net().to(device)
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)  # want: OPT001
opt2 = optim.Adam(model.fc.parameters(), 1e-3, (0.9, 0.99))  # want: OPT001
opt3 = torch.optim.SGD(  # want: OPT001
    model.parameters(),
    lr=0.1,
    momentum=0.9,
)

net = nn.Linear(4, 4)
net.cuda()
opt4 = torch.optim.Adam(net.parameters())  # want: OPT001


def build():
    m = Net().cuda(0)
    return torch.optim.AdamW(m.parameters(), weight_decay=0.01)  # want: OPT001
