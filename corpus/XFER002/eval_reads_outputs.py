# gpuopt-env: target-gpu=h100
# Evaluation loops over a pinned loader. One copies its predictions back to
# the host on every batch (per-sample maps drawn on the CPU): the host waits
# for the step and for that copy anyway, so a non-blocking input copy has
# nothing to overlap (blind samples S24D's TS-CAM and CCAM, S26H). Left
# alone. A loop that reads only a scalar metric with .item(), or saves an
# image on its first batch alone, keeps the finding.
import torch
import torch.nn.functional as F

loader = torch.utils.data.DataLoader(range(64), batch_size=16, num_workers=4, pin_memory=True)
model = torch.nn.Linear(3, 10).cuda()
model.eval()

maps = []
with torch.no_grad():
    for images, labels in loader:
        images = images.cuda()
        out = model(images)
        for b in range(out.shape[0]):
            maps.append(out[b].cpu().numpy())

total = 0.0
with torch.no_grad():
    for i, (images, labels) in enumerate(loader):
        images, labels = images.cuda(), labels.cuda()  # want: XFER002, XFER002
        out = model(images)
        total += F.cross_entropy(out, labels).item()
        if i == 0:
            first = out[:8].cpu()
