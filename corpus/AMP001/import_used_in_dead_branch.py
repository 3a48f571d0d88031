"""The deprecated autocast and GradScaler imported, and used only under
`if self.device == "cuda":`, where self.device is a torch.device: a
torch.device never equals a string, so those branches never run, and the
import's finding goes with the uses'."""
import torch
import torch.nn.functional as F
from torch.cuda.amp import GradScaler, autocast


class Trainer:
    def __init__(self, model):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.optimizer = torch.optim.AdamW(model.parameters(), fused=True)

    def train_epoch(self, loader):
        if self.device == "cuda":
            scaler = GradScaler()
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            if self.device == "cuda":
                with autocast():
                    loss = F.cross_entropy(self.model(x), y)
                scaler.scale(loss).backward()
                scaler.step(self.optimizer)
                scaler.update()
            else:
                loss = F.cross_entropy(self.model(x), y)
                loss.backward()
                self.optimizer.step()
            self.optimizer.zero_grad()
