# A distributed training function handed its TensorBoard writer (None on
# the other processes): the rank-0 guard picks the process that logs, not
# the step, so add_scalar still reads the loss on every step there. The
# print under a step guard is logged every 50 steps: silent.
import torch
import torch.nn as nn
from torch.utils.tensorboard import SummaryWriter


def train(args, loader, model, criterion, optimizer, writer):
    for step, (x, y) in enumerate(loader):
        x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if args.rank == 0 and step % 50 == 0:
            print(f"step {step}: {loss.item()}")
        if args.rank == 0:
            writer.add_scalar("loss", loss.item(), args.global_step)  # want: SYNC005
            args.global_step += 1


def main(args, loader):
    model = nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 10)).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), fused=True)
    writer = None
    if args.rank == 0:
        writer = SummaryWriter()
    for epoch in range(10):
        train(args, loader, model, nn.CrossEntropyLoss(), optimizer, writer)
