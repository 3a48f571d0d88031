# gpuopt-env: target-gpu=a100-80gb
import numpy as np
import pandas as pd
import torch

frame = pd.read_csv("samples.csv")  # want: CUDF001
frame = frame.fillna(0)
x = torch.tensor(frame.values).float().cuda()
model = torch.nn.Linear(x.shape[1], 1).cuda()
print(model(x).mean().item())
