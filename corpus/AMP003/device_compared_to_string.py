# gpuopt-env: target-gpu=h100
# A torch.device compared with a string is never equal (False on PyTorch
# 2.11): the fp16 autocast and the scaler under `if self.device == "cuda":`
# never run, so there is no fp16 to move to bf16 (blind sample S25D).
import torch
import torch.nn as nn
from torch.amp import GradScaler, autocast


class Trainer:
    def __init__(self, model):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def train(self, loader):
        if self.device == "cuda":
            scaler = GradScaler("cuda")
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            self.optimizer.zero_grad()
            if self.device == "cuda":
                with autocast("cuda"):
                    loss = nn.functional.cross_entropy(self.model(x), y)
            else:
                loss = nn.functional.cross_entropy(self.model(x), y)
            if self.device == "cuda":
                scaler.scale(loss).backward()
                scaler.step(self.optimizer)
                scaler.update()
            else:
                loss.backward()
                self.optimizer.step()


if __name__ == "__main__":
    batches = [(torch.randn(8, 16), torch.randint(0, 4, (8,)))]
    Trainer(nn.Linear(16, 4)).train(batches)
