# gpuopt-env: target-gpu=h100
# A one-layer LSTM classifier (models/lstm.py, whose __init__ calls super())
# trained at batch 32: autocast hardly pays (a hint), and cuDNN runs the
# LSTM in fp16 under any autocast: fp16 with a GradScaler.
import torch
import torch.nn.functional as F

from models.lstm import LSTMClassifier

batch_size = 32
model = LSTMClassifier(20000, 300, 256, 2).cuda()
optim = torch.optim.Adam(model.parameters(), fused=True)
for step in range(100):
    text = torch.randint(0, 20000, (batch_size, 200), device="cuda")
    target = torch.randint(0, 2, (batch_size,), device="cuda")
    prediction = model(text)  # want: AMP004
    loss = F.cross_entropy(prediction, target)
    optim.zero_grad()
    loss.backward()
    optim.step()
