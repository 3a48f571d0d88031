# PyTorch Lightning runs the training loop, so its Trainer's precision is
# the autocast switch: a Trainer on the GPU without one trains in fp32
# ("32-true"). The finding sits at the Trainer and offers
# precision="bf16-mixed" as a hint (the LightningModule's size decides
# the gain). A CPU Trainer, one given a precision, one whose accelerator
# comes from a flag, a Lightning 1 style `gpus=` flag defaulting to 0
# (the CPU unless asked), and a Trainer only used to test a checkpoint
# (blind sample S37Y's Light_CVGL) say nothing.
import argparse

import pytorch_lightning as pl
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class LitClassifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 10))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = nn.functional.cross_entropy(self.net(x), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-3)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--accelerator", default="gpu")
    parser.add_argument("--precision", default="32")
    parser.add_argument("--gpus", type=int, default=0)
    parser.add_argument("--test", action="store_true")
    args = parser.parse_args()
    data = DataLoader(TensorDataset(torch.randn(10000, 1024), torch.randint(0, 10, (10000,))), batch_size=256)

    trainer = pl.Trainer(accelerator="gpu", devices=1, max_epochs=10)  # want: AMP004
    trainer.fit(LitClassifier(), data)

    on_cpu = pl.Trainer(accelerator="cpu", max_epochs=1)
    on_cpu.fit(LitClassifier(), data)

    chosen = pl.Trainer(accelerator="gpu", devices=1, precision=args.precision)
    chosen.fit(LitClassifier(), data)

    flagged = pl.Trainer(accelerator=args.accelerator, max_epochs=10)
    flagged.fit(LitClassifier(), data)

    counted = pl.Trainer(gpus=args.gpus, max_epochs=10)
    counted.fit(LitClassifier(), data)

    if args.test:
        runner = pl.Trainer(accelerator="gpu", devices=1, max_epochs=10)
        runner.test(LitClassifier.load_from_checkpoint("best.ckpt"), data)
    else:
        runner = pl.Trainer(accelerator="gpu", devices=1, max_epochs=10)  # want: AMP004
        runner.fit(LitClassifier(), data)


if __name__ == "__main__":
    main()
