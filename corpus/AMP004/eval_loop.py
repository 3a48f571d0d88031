# gpuopt-env: target-gpu=a100
# Train and evaluate, two-space indentation: the training step's forward and
# loss (but not the metrics after them) and the evaluation forward go under
# autocast; branches of the forward stay intact.
import torch
import torch.nn.functional as F
from torch import nn


class Net(nn.Module):
  def __init__(self):
    super().__init__()
    self.fc = nn.Linear(4096, 4096)  # wide enough for autocast to pay

  def forward(self, x):
    return F.log_softmax(self.fc(x), dim=1)


model = Net().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
use_extra = False


def train(loader):
  model.train()
  for data, target in loader:
    data, target = data.cuda(), target.cuda()
    optimizer.zero_grad()
    # forward
    if use_extra:
      output = model(data * 2)  # want: AMP004
    else:
      output = model(data)
    loss = F.nll_loss(output, target)
    correct = (output.argmax(1) == target).sum()
    loss.backward()
    optimizer.step()


def test(loader):
  model.eval()
  total = 0
  with torch.no_grad():
    for data, target in loader:
      data, target = data.cuda(), target.cuda()
      output = model(data)  # joins the step's hint: its fix wraps this loop too
      total += F.nll_loss(output, target, reduction='sum')
      pred = output.argmax(dim=1)
  return total


def predict(xs):
  # No eval(), no no_grad: not recognised as an evaluation loop.
  return [model(x.cuda()) for x in xs]


def evaluate(data_source):
  model.eval()
  total = 0.
  with torch.no_grad():
    for data, targets in data_source:
      if use_extra:
        output = model(data.cuda())  # joins the step's hint too
      else:
        output = model(data.cuda() * 2)
      total += len(data) * F.nll_loss(output, targets.cuda())
  return total


def build_lazy_parameters(loader):
  # One batch, then break: a forward that only creates lazily registered
  # parameters before load_state_dict. Nothing to speed up: silent.
  model.eval()
  with torch.no_grad():
    for data, _ in loader:
      model(data.cuda())
      break


def dump_samples(samples):
  # A few samples rendered every few thousand steps, one file each: not
  # an evaluation worth autocast. Silent.
  model.eval()
  with torch.no_grad():
    for i, x in enumerate(samples):
      out = model(x.cuda())
      save_image(out, "sample_%d.png" % i)
