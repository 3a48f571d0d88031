# cuDNN is switched off for the whole run (torch.backends.cudnn.enabled =
# False, through the module's alias): convolutions run without it, and
# benchmark mode would have nothing to choose. No OPT003 (blind sample S31E).
import torch
import torch.nn as nn
from torch.backends import cudnn

model = nn.Sequential(nn.Conv2d(3, 64, 3), nn.ReLU(), nn.Conv2d(64, 64, 3)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
cudnn.enabled = False
for x in torch.utils.data.DataLoader(torch.randn(100, 3, 32, 32), batch_size=10):
    loss = model(x.cuda()).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
