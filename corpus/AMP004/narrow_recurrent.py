# gpuopt-env: target-gpu=h100
# A GRU forecaster of 100 hidden units over a 168-step window (LSTNet's
# defaults) and a neural collaborative filtering model whose MLP is built
# in a loop (`factor_num * 2 ** (num_layers - i)`, 256 wide at the flags'
# defaults) beside user and item tables of a size read at run time. Both
# are narrow: GRUs and LSTMs of 64-256 hidden units ran 0.60-1.02x and
# NCF 0.67-0.77x with bf16 autocast on an H100 (corpus/gpu/amp004_narrow.py
# rnn): no finding. The 1024-wide GRU at the end is not narrow: reported,
# wrapped in fp16 autocast with a GradScaler (cuDNN runs a GRU in fp16
# under any autocast).
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--hidRNN", type=int, default=100)
parser.add_argument("--factor_num", type=int, default=32)
parser.add_argument("--num_layers", type=int, default=3)
args = parser.parse_args()


class Forecaster(nn.Module):
    def __init__(self, args, series):
        super().__init__()
        self.gru = nn.GRU(series, args.hidRNN, batch_first=True)
        self.out = nn.Linear(args.hidRNN, series)

    def forward(self, x):
        h, _ = self.gru(x)
        return self.out(h[:, -1])


class NCF(nn.Module):
    def __init__(self, user_num, item_num, factor_num, num_layers):
        super().__init__()
        self.embed_user = nn.Embedding(user_num, factor_num * (2 ** (num_layers - 1)))
        self.embed_item = nn.Embedding(item_num, factor_num * (2 ** (num_layers - 1)))
        modules = []
        for i in range(num_layers):
            input_size = factor_num * (2 ** (num_layers - i))
            modules.append(nn.Linear(input_size, input_size // 2))
            modules.append(nn.ReLU())
        self.mlp = nn.Sequential(*modules)
        self.predict = nn.Linear(factor_num, 1)

    def forward(self, user, item):
        h = torch.cat([self.embed_user(user), self.embed_item(item)], -1)
        return self.predict(self.mlp(h)).view(-1)


def train_forecaster(loader, series):
    model = Forecaster(args, series).cuda()
    opt = torch.optim.Adam(model.parameters(), fused=True)
    for x, y in loader:
        x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def train_ncf(loader, user_num, item_num):
    model = NCF(user_num, item_num, args.factor_num, args.num_layers).cuda()
    opt = torch.optim.Adam(model.parameters(), fused=True)
    for user, item, label in loader:
        user, item, label = user.cuda(non_blocking=True), item.cuda(non_blocking=True), label.float().cuda(non_blocking=True)
        loss = F.binary_cross_entropy_with_logits(model(user, item), label)
        opt.zero_grad()
        loss.backward()
        opt.step()


class WideForecaster(nn.Module):
    def __init__(self, series):
        super().__init__()
        self.gru = nn.GRU(series, 1024, batch_first=True)
        self.out = nn.Linear(1024, series)

    def forward(self, x):
        h, _ = self.gru(x)
        return self.out(h[:, -1])


def train_wide(loader, series):
    model = WideForecaster(series).cuda()
    opt = torch.optim.Adam(model.parameters(), fused=True)
    for x, y in loader:
        x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
        loss = F.mse_loss(model(x), y)  # want: AMP004
        opt.zero_grad()
        loss.backward()
        opt.step()
