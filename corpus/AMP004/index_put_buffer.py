# gpuopt-env: target-gpu=h100
# A cross-modal hashing step that writes each batch's codes into an fp32
# buffer by index (blind sample S22L's DCMH). Under a bf16 wrap the codes
# are bf16, and `F_buffer[ind] = cur_f.data` raises "Index put requires
# the source and destination dtypes match": AMP004 reports the step, names
# the line, and offers no wrap. A number written by index would be safe.
import torch
import torch.nn as nn

model = nn.TransformerEncoder(nn.TransformerEncoderLayer(1024, 16, batch_first=True), 12).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
F_buffer = torch.randn(10000, 64, 1024, device="cuda")
logs = {}

for epoch in range(100):
    for step in range(100):
        ind = torch.randint(0, 10000, (128,), device="cuda")
        x = torch.randn(128, 64, 1024, device="cuda")
        cur_f = model(x)  # want: AMP004
        F_buffer[ind] = cur_f.data
        logs["codes"] = cur_f.data  # a dict store is no index_put
        loss = (cur_f - F_buffer[ind]).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
