# A Processor class (the layout of ST-GCN-style training code): load_data()
# keeps the loaders in a dict on self, `self.data_loader['train'] =
# DataLoader(...)`, and train() reads the item back under the same key.
# The training loader is reported; the test loader, which nothing reads
# under its key, is not.
import argparse

import torch
import torch.nn as nn


def get_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-worker", type=int, default=16)
    parser.add_argument("--batch-size", type=int, default=64)
    return parser


class Processor:
    def __init__(self, arg, model, train_set, test_set):
        self.arg = arg
        self.train_set, self.test_set = train_set, test_set
        self.model = model.cuda()
        self.loss = nn.CrossEntropyLoss().cuda()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1, momentum=0.9, fused=True)
        self.load_data()

    def load_data(self):
        self.data_loader = dict()
        self.data_loader["train"] = torch.utils.data.DataLoader(  # want: LOAD002
            dataset=self.train_set,
            batch_size=self.arg.batch_size,
            shuffle=True,
            num_workers=self.arg.num_worker,
            drop_last=True)
        self.data_loader["test"] = torch.utils.data.DataLoader(
            dataset=self.test_set,
            batch_size=self.arg.batch_size,
            shuffle=False,
            num_workers=self.arg.num_worker)

    def train(self, epoch):
        self.model.train()
        loader = self.data_loader["train"]
        for data, label in loader:
            data = data.cuda(non_blocking=True)
            label = label.cuda(non_blocking=True)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = self.loss(self.model(data), label)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

    def start(self):
        for epoch in range(80):
            self.train(epoch)
