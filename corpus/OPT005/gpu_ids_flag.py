# gpuopt-env: target-gpu=h100
# Device ids from a flag: `--gpu_ids` defaults to one id, so the wrapper
# calls the model directly unless the user lists more (blind sample S25H's
# Glow); `--teacher_ids` defaults to two, and that wrapper replicates.
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--gpu_ids", default=[0], type=eval, help="IDs of GPUs to use")
parser.add_argument("--teacher_ids", default=[0, 1], type=eval)
args = parser.parse_args()

model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)).cuda()
model = nn.DataParallel(model, args.gpu_ids)
teacher = nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 10)).cuda()
teacher = nn.DataParallel(teacher, args.teacher_ids)  # want: OPT005
optimizer = torch.optim.Adam(list(model.parameters()) + list(teacher.parameters()), lr=1e-3)
for images, labels in loader:
    images, labels = images.cuda(), labels.cuda()
    loss = nn.functional.cross_entropy(model(images) + teacher(images), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
