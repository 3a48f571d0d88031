# gpuopt-env: target-gpu=h100
# The classifier is built by a factory gpuopt does not read through, and
# its module's only linear layer is a one-unit head beside the embedding,
# none as wide as the vocabulary: cuDNN runs the LSTM in TF32 already, so
# AMP005 stays silent (blind samples judged it false on the Jigsaw LSTMs
# and GRU4REC).
import torch
import torch.nn as nn

import model as models


def build(name):
    return getattr(models, name)(50000, 300, 128)


net = build("Classifier").cuda()
optimizer = torch.optim.Adam(net.parameters(), fused=True)
for epoch in range(5):
    for _ in range(1000):
        x = torch.randint(0, 50000, (512, 220), device="cuda")
        y = torch.rand(512, 1, device="cuda")
        loss = nn.functional.binary_cross_entropy_with_logits(net(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
