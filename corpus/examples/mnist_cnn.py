#!/usr/bin/env python3
# Digit classifier in the shape of the classic "train / test per epoch" scripts.
# Two-space indentation and single quotes on purpose: the fixes must keep them.
from __future__ import print_function

import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
  def __init__(self):
    super(Net, self).__init__()
    self.conv1 = nn.Conv2d(1, 32, 3, 1)
    self.conv2 = nn.Conv2d(32, 64, 3, 1)
    self.dropout1 = nn.Dropout(0.25)
    self.dropout2 = nn.Dropout(0.5)
    self.fc1 = nn.Linear(9216, 128)
    self.fc2 = nn.Linear(128, 10)

  def forward(self, x):
    x = F.relu(self.conv1(x))
    x = F.max_pool2d(F.relu(self.conv2(x)), 2)
    x = self.dropout1(x)
    x = torch.flatten(x, 1)
    x = self.dropout2(F.relu(self.fc1(x)))
    return F.log_softmax(self.fc2(x), dim=1)


def fake_digits(n):
  # Random images stand in for the real data set (no download in tests).
  images = torch.rand(n, 1, 28, 28)
  labels = torch.randint(0, 10, (n,))
  return TensorDataset(images, labels)


def train(args, model, device, train_loader, optimizer, epoch):
  model.train()
  history = []
  for batch_idx, (data, target) in enumerate(train_loader):
    data, target = data.to(device), target.to(device)
    optimizer.zero_grad()
    output = model(data)
    loss = F.nll_loss(output, target)
    loss.backward()
    optimizer.step()
    history.append(loss)  # kept for a plot at the end
    torch.cuda.synchronize()
    if batch_idx % args.log_interval == 0:
      print('Train Epoch: {} [{}/{}]\tLoss: {:.6f}'.format(
          epoch, batch_idx * len(data), len(train_loader.dataset), loss.item()))
      if args.dry_run:
        break
  return history


def test(model, device, test_loader):
  model.eval()
  test_loss = 0
  correct = 0
  # NOTE: no torch.no_grad() here, a common slip
  for data, target in test_loader:
    data, target = data.to(device), target.to(device)
    output = model(data)
    test_loss += F.nll_loss(output, target, reduction='sum').item()  # sum of batch losses
    pred = output.argmax(dim=1, keepdim=True)
    correct += pred.eq(target.view_as(pred)).sum().item()

  test_loss /= len(test_loader.dataset)
  print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{}\n'.format(
      test_loss, correct, len(test_loader.dataset)))


def main():
  # Training settings
  parser = argparse.ArgumentParser(description='digit classifier')
  parser.add_argument('--batch-size', type=int, default=64, metavar='N')
  parser.add_argument('--test-batch-size', type=int, default=1000, metavar='N')
  parser.add_argument('--epochs', type=int, default=3, metavar='N')
  parser.add_argument('--lr', type=float, default=1e-3, metavar='LR')
  parser.add_argument('--gamma', type=float, default=0.7, metavar='M')
  parser.add_argument("--dry-run", action='store_true', default=False)
  parser.add_argument('--log-interval', type=int, default=10, metavar='N')
  args = parser.parse_args()

  device = torch.device('cuda')
  train_loader = DataLoader(fake_digits(2048), batch_size=args.batch_size, shuffle=True)
  test_loader = DataLoader(fake_digits(512), batch_size=args.test_batch_size)

  model = Net().to(device)
  optimizer = optim.Adam(model.parameters(), lr=args.lr)
  scheduler = StepLR(optimizer, step_size=1, gamma=args.gamma)

  for epoch in range(1, args.epochs + 1):
    start = time.time()
    train(args, model, device, train_loader, optimizer, epoch)
    test(model, device, test_loader)
    scheduler.step()
    torch.cuda.empty_cache()  # "frees memory" between epochs
    print('epoch took %.1fs' % (time.time() - start))

  torch.save(model.state_dict(), 'digits_cnn.pt')


if __name__ == '__main__':
  main()
