# gpuopt-env: target-gpu=h100
# The batch size set on a namespace of settings (args.batch_size = 1): a
# recurrent model at batch 1, where autocast hardly pays: a hint, in fp16
# with a GradScaler (cuDNN runs the LSTM in fp16 under any autocast).
import types

import torch
import torch.nn as nn

args = types.SimpleNamespace()
args.batch_size = 1
args.hidden = 64


class SpeechLSTM(nn.Module):
    def __init__(self, n_in, hidden, n_out):
        super().__init__()
        self.lstm = nn.LSTM(n_in, hidden, 3, batch_first=True)
        self.fc = nn.Linear(hidden, n_out)

    def forward(self, x):
        y, _ = self.lstm(x)
        return self.fc(y[:, -1])


model = SpeechLSTM(12, args.hidden, 10).cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)
for step in range(1000):
    x = torch.randn(args.batch_size, 100, 12, device="cuda")
    y = torch.randint(0, 10, (args.batch_size,), device="cuda")
    loss = nn.functional.cross_entropy(model(x), y)  # want: AMP004
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
