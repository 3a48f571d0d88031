# gpuopt-env: target-gpu=h100 torch=2.4
# The step's outputs reach TensorBoard through names the loop derives from
# them: softmax outside the wrap keeps bf16, a slice and make_grid keep
# it, and add_image converts to NumPy, which has no bf16 (blind sample
# S17E's UA-MT, whose wrapped step would crash at its first logged image).
# The finding says to convert first and does not wrap.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.tensorboard import SummaryWriter
from torchvision.utils import make_grid

net = nn.Sequential(nn.Conv3d(1, 256, 3, padding=1), nn.ReLU(), nn.Conv3d(256, 2, 1)).cuda()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
writer = SummaryWriter("runs")
for iter_num, (volume_batch, label_batch) in enumerate(loader):
    volume_batch, label_batch = volume_batch.cuda(), label_batch.cuda()
    outputs = net(volume_batch)  # want: AMP004
    loss = F.cross_entropy(outputs, label_batch)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if iter_num % 50 == 0:
        outputs_soft = F.softmax(outputs, 1)
        image = outputs_soft[0, 1:2, :, :, 20:61:10].permute(3, 0, 1, 2).repeat(1, 3, 1, 1)
        grid_image = make_grid(image, 5, normalize=False)
        writer.add_image("train/Predicted_label", grid_image, iter_num)
