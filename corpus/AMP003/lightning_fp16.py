# gpuopt-env: target-gpu=h100
# A PyTorch Lightning Trainer that fits on the GPU in fp16 with loss
# scaling (precision=16): on Ampere and newer, bf16 needs no scaler, so the
# fix passes precision="bf16-mixed". A Trainer already in bf16 says nothing.
import pytorch_lightning as pl
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class LitRetrieval(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 256, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(256, 4096))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = nn.functional.cross_entropy(self.backbone(x), y)
        self.log("loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05, momentum=0.9)


def main():
    data = DataLoader(TensorDataset(torch.randn(512, 3, 64, 64), torch.randint(0, 4096, (512,))), batch_size=64)
    trainer = pl.Trainer(accelerator="gpu", devices=1, precision=16, max_epochs=30)  # want: AMP003
    trainer.fit(LitRetrieval(), data)
    bf16 = pl.Trainer(accelerator="gpu", devices=1, precision="bf16-mixed", max_epochs=30)
    bf16.fit(LitRetrieval(), data)


if __name__ == "__main__":
    main()
