# gpuopt-env: target-gpu=h100
# A GRU encoder of 512 hidden units in another module, reached as
# `sm.EncoderRNN`, trained at BATCH_SIZE = 1: autocast hardly pays for a
# recurrent model at batch 1: a hint, in fp16 with a GradScaler, since
# cuDNN runs the GRU in fp16 under any autocast. (At
# 256 hidden units or less the network is narrow: no finding.)
import torch
import torch.nn.functional as F

import seq_models as sm

BATCH_SIZE = 1
encoder = sm.EncoderRNN(128, 512).cuda()
opt = torch.optim.Adam(encoder.parameters(), lr=1e-3, fused=True)
for step in range(10000):
    tokens = torch.randint(0, 128, (12,), device="cuda")
    out, h = encoder(tokens, encoder.init_hidden())  # want: AMP004
    loss = F.mse_loss(out, torch.zeros_like(out))
    opt.zero_grad()
    loss.backward()
    opt.step()
