# Code written for PyTorch 0.3 asks for an asynchronous copy with async=,
# the name non_blocking had then: the copy already overlaps, so there is
# nothing for XFER002 to add (Python 3.7 rejects the keyword: E999 says so,
# and the file is never rewritten). The copy beside it is reported.
import torch
from torch.utils.data import DataLoader

loader = DataLoader(dataset, batch_size=256, num_workers=8, pin_memory=True)
model = torch.nn.Linear(512, 10).cuda()
for inputs, index in loader:
    index = index.cuda(async=True)
    inputs = inputs.cuda()  # want: XFER002
    loss = model(inputs).gather(1, index[:, None]).sum()
    loss.backward()
