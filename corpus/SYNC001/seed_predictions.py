import time
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(16, 4).to(device)
loader = DataLoader(TensorDataset(torch.randn(64, 16), torch.zeros(64)), batch_size=8)

# Seed: frequent syncs, then one conversion at the end.
predictions = []
with torch.no_grad():
    for inputs, _ in loader:
        outputs = model(inputs.to(device))
        t_step = time.perf_counter()  # host work each step (timing, logging)
        predictions.append(outputs.cpu().numpy())  # want: SYNC001
predictions = np.concatenate(predictions)
print(predictions.shape)
