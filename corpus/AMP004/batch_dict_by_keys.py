# gpuopt-env: target-gpu=h100
# A batch dict moved to the GPU key by key (blind sample S33O's PANNs:
# `for key in batch.keys(): batch[key] = move(batch[key])`): the write is
# a dict's, under a key, not a tensor's by index, so it does not hold the
# wrap back (the finding named it as a write that would raise).
import torch
import torch.nn as nn

model = nn.TransformerEncoder(nn.TransformerEncoderLayer(1024, 16, batch_first=True), 12).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)


def train(loader, device="cuda"):
    for batch in loader:
        for key in batch.keys():
            batch[key] = batch[key].to(device)
        out = model(batch["features"])  # want: AMP004
        loss = nn.functional.mse_loss(out, batch["target"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


for epoch in range(10):
    train([])
