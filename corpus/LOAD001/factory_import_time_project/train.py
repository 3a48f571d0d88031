import torch

from models import get_dataloader

model = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(1024, 16, batch_first=True), 8).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
dl = get_dataloader([f"curve{i}.npy" for i in range(50000)], batch_size=64)
for epoch in range(100):
    for seqs in dl:
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(seqs.cuda(non_blocking=True)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
