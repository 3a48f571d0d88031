# A super-resolution benchmark script: the model is put in evaluation mode
# where it is built (`Generator(4).eval()`), then every image is upscaled
# with autograd on.
import torch
from torch import nn

model = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 3, 3, padding=1)).eval()
if torch.cuda.is_available():
    model = model.cuda()
images = [torch.randn(1, 3, 64, 64) for _ in range(8)]

for lr_image in images:  # want: MEM003
    sr_image = model(lr_image.cuda())
    print(sr_image.mean().item())
