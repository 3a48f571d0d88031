import torch
from torch.utils.data import DataLoader, TensorDataset

device = "cuda" if torch.cuda.is_available() else "cpu"
features = torch.from_numpy(__import__("numpy").zeros((32, 4), dtype="float32"))
val_loader = DataLoader(TensorDataset(features), batch_size=4)
model = torch.nn.Linear(4, 1)
model = model.to(device)
model.eval()
total = 0.0
with torch.no_grad():
    for (batch,) in val_loader:  # want: DEV002
        total += model(batch).sum().item()
print(total)
