# A loader built anew on each pass of the outer loop (one per checkpoint)
# and iterated once: its workers are never reused, so persistent_workers
# gains nothing. Silent.
import torch
from torch.utils.data import DataLoader, TensorDataset

model = torch.nn.Linear(8, 2).cuda()
images = torch.randn(64, 8)
for step in range(5):
    model.load_state_dict(torch.load(f"snapshot{step}.pth"))
    test_loader = DataLoader(TensorDataset(images), batch_size=8, num_workers=8, pin_memory=True)
    model.eval()
    with torch.no_grad():
        for (x,) in test_loader:
            preds = model(x.to("cuda", non_blocking=True))
