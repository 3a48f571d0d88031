# gpuopt-env: target-gpu=h100
# A base trainer whose epoch loop validates every val_freq epochs through
# self.validate(), which each subclass overrides (blind sample S35S's
# virtual-staining trainers): the validation's per-batch .item() runs on
# a fifth of the epochs, over the validation split, a small share of the
# run. The training step's total is reported.
import torch
import torch.nn as nn


class BaseTrainer:
    def __init__(self, model, train_loader, val_loader, val_freq=5):
        self.model = model.cuda()
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.val_freq = val_freq
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=2e-4, fused=True)

    def train_epoch(self):
        self.model.train()
        total = 0.0
        for x, y in self.train_loader:
            x, y = x.cuda(), y.cuda()
            loss = nn.functional.l1_loss(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item()  # want: SYNC002
        return total / len(self.train_loader)

    def validate(self):
        raise NotImplementedError

    def fit(self, epochs):
        for epoch in range(epochs):
            print(epoch, self.train_epoch())
            if (epoch + 1) % self.val_freq == 0:
                print("val", self.validate())


class UNetTrainer(BaseTrainer):
    def validate(self):
        self.model.eval()
        total = 0.0
        with torch.no_grad():
            for x, y in self.val_loader:
                x, y = x.cuda(), y.cuda()
                total += nn.functional.mse_loss(self.model(x), y).item()
        return total / len(self.val_loader)
