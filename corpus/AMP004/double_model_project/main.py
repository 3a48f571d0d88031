# The model's class casts itself to float64 in __init__ (blind sample
# S38AR's aircraft detector, built as `model.AircraftModel()` through
# `import model`): its matmuls and convolutions run in fp64, which
# autocast leaves alone. No AMP004.
import torch

import model

aircraft_model = model.AircraftModel().cuda()
optimizer = torch.optim.Adam(aircraft_model.parameters(), fused=True)
for epoch in range(100):
    for x, y in loader:
        out = aircraft_model(x.cuda().double())
        loss = torch.nn.functional.mse_loss(out, y.cuda().double())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
