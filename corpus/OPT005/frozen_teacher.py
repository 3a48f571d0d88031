# Knowledge distillation: the teacher is wrapped in DataParallel so that a
# checkpoint saved from a multi-GPU run (its `module.` keys) loads, then
# runs under no_grad; the optimizer steps the student only. DDP, which
# synchronises gradients, has nothing to do for the teacher: no finding
# there. The student's wrap keeps it.
import torch
import torch.nn as nn
import torchvision


def train_kd(loader, epochs):
    student = nn.DataParallel(torchvision.models.resnet18(num_classes=10)).cuda()  # want: OPT005
    teacher = torchvision.models.resnet50(num_classes=10)
    teacher = nn.DataParallel(teacher).cuda()
    teacher.load_state_dict(torch.load("teacher.pth"))
    teacher.eval()
    optimizer = torch.optim.SGD(student.parameters(), lr=0.1, momentum=0.9, fused=True)
    for epoch in range(epochs):
        for x, y in loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            with torch.no_grad():
                soft = teacher(x).softmax(-1)
            out = student(x)
            loss = nn.functional.cross_entropy(out, y) + nn.functional.kl_div(out.log_softmax(-1), soft, reduction="batchmean")
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
