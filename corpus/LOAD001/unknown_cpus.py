# gpuopt-env: cpus=0
import torch
from torch.utils.data import DataLoader

model = torch.nn.Linear(8, 2).cuda()
loader = DataLoader(list(range(8)), batch_size=2)  # want: LOAD001
if __name__ == "__main__":
    for batch in loader:
        out = model(batch.cuda())
