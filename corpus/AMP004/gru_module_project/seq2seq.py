# gpuopt-env: target-gpu=h100
# A GRU encoder of another module, reached as `sm.EncoderRNN`, trained at
# BATCH_SIZE = 1: autocast hardly pays for a small recurrent model at
# batch 1, so the wrap is a hint that says so.
import torch
import torch.nn.functional as F

import seq_models as sm

BATCH_SIZE = 1
encoder = sm.EncoderRNN(128, 100).cuda()
opt = torch.optim.Adam(encoder.parameters(), lr=1e-3, fused=True)
for step in range(10000):
    tokens = torch.randint(0, 128, (12,), device="cuda")
    out, h = encoder(tokens, encoder.init_hidden())  # want: AMP004
    loss = F.mse_loss(out, torch.zeros_like(out))
    opt.zero_grad()
    loss.backward()
    opt.step()
