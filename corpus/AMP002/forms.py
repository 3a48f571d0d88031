import torch

scaler = torch.cuda.amp.GradScaler()  # want: AMP002
scaler2 = torch.cuda.amp.GradScaler(enabled=False)  # want: AMP002
scaler3 = torch.cuda.amp.GradScaler(2.0**10, 2.0)  # want: AMP002
amp_scaler = torch.amp.GradScaler("cuda")
