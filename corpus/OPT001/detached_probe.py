# gpuopt-env: target-gpu=h100
# A linear probe whose features are detached after the encoder's forward
# instead of computed under no_grad (blind sample S17H's SimCLR probe):
# the optimizer steps one nn.Linear, two tensors, beside a ResNet forward;
# fused=True would save microseconds. The encoder fine-tuned end to end
# below keeps its finding.
import torch
import torch.nn as nn
import torchvision

net = torchvision.models.resnet50().cuda()
net.fc = nn.Identity()
clf = nn.Linear(2048, 10).cuda()
clf_optimizer = torch.optim.SGD(clf.parameters(), lr=0.1, momentum=0.9, nesterov=True)
finetune_optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)  # want: OPT001


def train_clf(loader):
    net.eval()
    for inputs, targets in loader:
        clf_optimizer.zero_grad()
        representation = net(inputs.cuda()).detach()
        loss = nn.functional.cross_entropy(clf(representation), targets.cuda())
        loss.backward()
        clf_optimizer.step()


def finetune(loader):
    net.train()
    for inputs, targets in loader:
        finetune_optimizer.zero_grad()
        loss = nn.functional.cross_entropy(clf(net(inputs.cuda())), targets.cuda())
        loss.backward()
        finetune_optimizer.step()


for epoch in range(100):
    train_clf(train_loader)
finetune(train_loader)
