# A validation loop that draws each sample's class activation map on the
# host (`.cpu().numpy()` per sample) waits for the GPU on every step by
# design: moving its TensorBoard read of the loss off the step gains
# nothing (blind sample S24D's TS-CAM). The training loop's per-step
# read is reported.
import torch
import torch.nn.functional as F
from torch.utils.tensorboard import SummaryWriter

writer = SummaryWriter()
model = torch.nn.Conv2d(3, 10, 3).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(range(64), batch_size=16)

for step, (x, y) in enumerate(loader):
    loss = F.cross_entropy(model(x.cuda()).mean((2, 3)), y.cuda())
    opt.zero_grad()
    loss.backward()
    opt.step()
    writer.add_scalar("train/loss", loss.item(), step)  # want: SYNC005

model.eval()
with torch.no_grad():
    for step, (x, y) in enumerate(loader):
        cams = model(x.cuda())
        loss = F.cross_entropy(cams.mean((2, 3)), y.cuda())
        writer.add_scalar("val/loss", loss.item(), step)
        for b in range(cams.shape[0]):
            heat = cams[b].cpu().numpy()
