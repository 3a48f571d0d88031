# gpuopt-env: target-gpu=h100
# Lightning 1.x code, though nothing pins the version: the module still
# has validation_epoch_end (removed in 2.0) and the Trainer takes gpus=.
# The fix spells bf16 the way 1.x accepts it, precision="bf16" (2.x
# still takes it as an alias of "bf16-mixed").
import pytorch_lightning as pl
import torch
import torch.nn as nn


class LitSegmenter(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(4, 256, 3, padding=1), nn.ReLU(), nn.Conv2d(256, 2, 1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.cross_entropy(self.net(x), y)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.cross_entropy(self.net(x), y)

    def validation_epoch_end(self, outputs):
        self.log("val_loss", torch.stack(outputs).mean())

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


def main(train_loader, val_loader):
    trainer = pl.Trainer(gpus=1, precision=16, max_epochs=50)  # want: AMP003
    trainer.fit(LitSegmenter(), train_loader, val_loader)
