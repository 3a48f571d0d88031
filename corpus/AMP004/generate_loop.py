# gpuopt-env: target-gpu=h100
# A model trained here, then sampled one token at a time: the sampling
# loop feeds the forward its own outputs, so a wrap inside it would cast
# every weight again at each step, for kernels bound by their launches:
# no finding there. The training step gets the wrap.
import torch
from torch import nn

model = nn.Sequential(nn.Embedding(50000, 2048), nn.Linear(2048, 50000)).cuda()
optimizer = torch.optim.AdamW(model.parameters(), fused=True)
for step in range(10):
    tokens = torch.randint(0, 50000, (16, 128), device="cuda")
    loss = model(tokens).logsumexp(-1).mean()  # want: AMP004
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

model.eval()
idx = torch.zeros((1, 1), dtype=torch.long, device="cuda")
with torch.no_grad():
    for _ in range(100):
        logits = model(idx)
        next_id = logits[:, -1].argmax(-1, keepdim=True)
        idx = torch.cat([idx, next_id], dim=1)

# The same, with the tokens kept in a Python list that the loop appends
# to and turns into the next input.
res = [0]
with torch.no_grad():
    for _ in range(100):
        src = torch.tensor(res, device="cuda")[None, :]
        logits = model(src)
        next_word = logits[0, -1].argmax().item()
        res.append(next_word)
