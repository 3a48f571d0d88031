# gpuopt-env: target-gpu=h100
# A product-matching model whose ArcFace head (head.py) writes one tensor
# into another by index in its forward: under a bf16 wrap `cos_th` is bf16
# while `cos_th_m`, computed through pow, is fp32, and index_put raises
# (blind sample S22L's Shopee solution). AMP004 reports the step, names
# the imported module's write, and offers no wrap.
import torch
import torch.nn as nn
import torch.nn.functional as F

from head import ArcMarginProduct


class Matcher(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(1024, 16, batch_first=True), 12)
        self.head = ArcMarginProduct(1024, 11014)

    def forward(self, x, labels):
        return self.head(self.encoder(x).mean(1), labels)


model = Matcher().cuda()
optimizer = torch.optim.AdamW(model.parameters(), fused=True)
for step in range(1000):
    x = torch.randn(64, 128, 1024, device="cuda")
    labels = torch.randint(0, 11014, (64,), device="cuda")
    loss = F.cross_entropy(model(x, labels), labels)  # want: AMP004
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
