# gpuopt-env: target-gpu=h100
# The batch is augmented in NumPy and rebuilt with torch.Tensor(...) before
# the copy: the tensor copied is no longer the pinned one, non_blocking
# would do nothing. The labels, copied as drawn, are.
import torch

loader = torch.utils.data.DataLoader(range(8), batch_size=4, num_workers=4, pin_memory=True)
model = torch.nn.Linear(3, 3).cuda()
for points, target in loader:
    points = points.data.numpy()
    points[:, :, :3] = points[:, :, :3] * 1.1
    points = torch.Tensor(points)
    points, target = points.float().cuda(), target.cuda()  # want: XFER002
    model(points)

# Moved in one branch or the other: the else branch's copy is still of the
# pinned batch (ImageNet's validate()).
for images, target in loader:
    if torch.cuda.device_count() > 1:
        images = images.cuda(0, non_blocking=True)
    else:
        images = images.to("cuda")  # want: XFER002
    model(images)
