# The evaluation loop accumulates a tensor that code after the loop
# divides in place (blind sample S17J's LeNet course script): a tensor
# made under inference_mode refuses an in-place update outside it
# (RuntimeError), so the fix wraps the loop in no_grad instead.
import torch
from torch import nn

model = nn.Sequential(nn.Flatten(), nn.Linear(784, 4096), nn.ReLU(), nn.Linear(4096, 10)).cuda()
criterion = nn.CrossEntropyLoss(reduction="none")


def evaluate(loader, n):
    model.eval()
    avg_loss = 0
    correct = 0
    for data, target in loader:  # want: MEM003
        data, target = data.cuda(), target.cuda()
        output = model(data)
        avg_loss += criterion(output, target).sum()
        correct += (output.argmax(1) == target).sum()
    avg_loss /= n
    return avg_loss.item(), correct.item() / n
