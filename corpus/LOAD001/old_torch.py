# gpuopt-env: torch=1.6
# torch 1.6 has no persistent_workers or prefetch_factor (1.7): the fix adds
# the workers and pin_memory only, and LOAD003 stays silent.
import os

import torch

loader = torch.utils.data.DataLoader(torch.utils.data.Dataset(), batch_size=32)  # want: LOAD001
model = torch.nn.Linear(8, 8).cuda()


def main():
    for epoch in range(10):
        for x in loader:
            model(x.cuda()).sum().backward()


if __name__ == "__main__":
    main()
