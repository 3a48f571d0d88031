# gpuopt-env: target-gpu=h100
# An encoder-decoder whose LSTMs run in fp16 under any autocast, so the
# wrap needs a GradScaler, and two optimizers step after one backward
# (blind sample S33BN's polyphonic OMR): a scaler that routes only the
# first step leaves the second on scaled, unchecked gradients, NaN at
# the first overflow. Reported, with the scaler left to the user: no fix.
import torch
import torch.nn as nn

encoder = nn.LSTM(1024, 1024, num_layers=2, batch_first=True).cuda()
decoder = nn.LSTM(1024, 1024, num_layers=2, batch_first=True).cuda()
head = nn.Linear(1024, 32000).cuda()
encoder_optimizer = torch.optim.Adam(encoder.parameters(), fused=True)
decoder_optimizer = torch.optim.Adam(list(decoder.parameters()) + list(head.parameters()), fused=True)
criterion = nn.CrossEntropyLoss()
for step in range(10000):
    x = torch.randn(256, 64, 1024, device="cuda")
    y = torch.randint(0, 32000, (256 * 64,), device="cuda")
    encoder_optimizer.zero_grad()
    decoder_optimizer.zero_grad()
    memory, state = encoder(x)  # want: AMP004
    out, _ = decoder(memory, state)
    loss = criterion(head(out).reshape(-1, 32000), y)
    loss.backward()
    encoder_optimizer.step()
    decoder_optimizer.step()
