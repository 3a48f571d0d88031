# gpuopt-env: target-gpu=h100
# A recurrent attention model evaluated glimpse by glimpse, then once
# more for the last glimpse: one hint for the evaluation loop, not one
# per forward. A frozen speaker embedder run per sample inside the
# training step is part of that step, not an evaluation loop.
import torch
import torch.nn.functional as F

from models import build_model, build_embedder

model = build_model().cuda()
embedder = build_embedder().cuda()
optimizer = torch.optim.Adam(model.parameters(), fused=True)


def train(loader):
    for mels, x, y in loader:
        x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
        dvecs = []
        for mel in mels:
            dvecs.append(embedder(mel.cuda()))
        dvec = torch.stack(dvecs).detach()
        loss = F.mse_loss(model(x, dvec), y)  # want: AMP004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


@torch.no_grad()
def test(loader, glimpses):
    correct = 0
    for x, y in loader:
        x = x.cuda(non_blocking=True)
        h = torch.zeros(x.shape[0], 256, device="cuda")
        for t in range(glimpses - 1):
            h = model(x, h)  # joins the step's hint: its fix wraps this loop too
        logits = model(x, h, last=True)
        correct += (logits.argmax(1).cpu() == y).sum()
    return correct
