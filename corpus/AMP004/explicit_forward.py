# gpuopt-env: target-gpu=h100
# A course project calls the model's forward by hand, on a model passed in
# (a torchvision network with a new classifier): the same forward pass.
import torch
from torch import nn
from torch.autograd import Variable


def train(model, criterion, optimizer, epochs, loader, use_gpu):
    model.train()
    for epoch in range(epochs):
        for inputs, labels in iter(loader):
            if use_gpu:
                inputs = Variable(inputs.float().cuda())
                labels = Variable(labels.long().cuda())
            optimizer.zero_grad()
            output = model.forward(inputs)  # want: AMP004
            loss = criterion(output, labels)
            loss.backward()
            optimizer.step()
