# DataParallel over range(--ngpu): with the default of one GPU it calls the
# module directly (no replicas, no gather), so only the flag that asks for
# more GPUs makes it slow: the finding says so (blind sample S16P's mnist
# script). The same wrapper with a default of two gets the plain message.
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--ngpu", type=int, default=1)
parser.add_argument("--teacher-gpus", type=int, default=2)
args = parser.parse_args()

model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)).cuda()
model = nn.DataParallel(model, device_ids=range(args.ngpu))  # want: OPT005
teacher = nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 10)).cuda()
teacher = nn.DataParallel(teacher, device_ids=list(range(args.teacher_gpus)))  # want: OPT005
optimizer = torch.optim.Adam(list(model.parameters()) + list(teacher.parameters()), lr=1e-3)
for images, labels in loader:
    images, labels = images.cuda(), labels.cuda()
    loss = nn.functional.cross_entropy(model(images) + teacher(images), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
