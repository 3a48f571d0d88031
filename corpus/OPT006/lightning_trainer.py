import lightning as L
import torch
import torch.nn as nn


class Classifier(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(128, 1024), nn.GELU(), nn.Linear(1024, 10))

    def training_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.cross_entropy(self.net(x), y)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-3)


def main(train_loader):
    trainer = L.Trainer(max_epochs=50, accelerator="gpu", precision="bf16-mixed", detect_anomaly=True)  # want: OPT006
    trainer.fit(Classifier(), train_loader)
