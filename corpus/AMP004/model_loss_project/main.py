# gpuopt-env: target-gpu=h100
# The model of a sibling module carries its loss, `self.loss =
# nn.BCELoss()` on sigmoid scores (blind sample S17L's TuckER): autocast
# refuses BCELoss, so the finding says to switch to BCEWithLogitsLoss
# first, and offers no wrap.
import torch

from model import TuckER

model = TuckER(40943, 11).cuda()
opt = torch.optim.Adam(model.parameters(), lr=5e-4, fused=True)
for it in range(500):
    for e1_idx, r_idx, targets in batches:
        opt.zero_grad()
        predictions = model.forward(e1_idx.cuda(), r_idx.cuda())  # want: AMP004
        loss = model.loss(predictions, targets.cuda())
        loss.backward()
        opt.step()
