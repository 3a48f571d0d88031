# gpuopt-env: target-gpu=h100
# fp16 autocast with a GradScaler; the pitch model whose LSTMs sit on the
# generator's gradient path comes from another module. cuDNN runs them in
# fp16 under any autocast, so dropping the scaler would leave their
# gradients unscaled: AMP003 reports the switch with that caveat and
# offers no fix.
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, generator, f0_model):
        self.generator = generator.cuda()
        self.f0_model = f0_model.cuda()
        self.optimizer = torch.optim.AdamW(generator.parameters(), fused=True)
        self.scaler = torch.amp.GradScaler("cuda")  # want: AMP003

    def train_epoch(self, loader):
        for mel in loader:
            mel = mel.cuda(non_blocking=True)
            with torch.autocast("cuda", dtype=torch.float16):
                fake = self.generator(mel)
                loss = (self.f0_model(fake) - self.f0_model(mel)).abs().mean()
            self.optimizer.zero_grad()
            self.scaler.scale(loss).backward()
            self.scaler.step(self.optimizer)
            self.scaler.update()
