# Transfer learning two ways: fine-tuning the whole ResNet (its update
# steps ~60 tensors: OPT001), then a frozen backbone whose new head, one
# nn.Linear, is all the optimizer steps: two tensors, an update of
# microseconds beside the backbone's forward. No finding there.
import torch
import torch.nn as nn
import torchvision

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

model = torchvision.models.resnet18(weights="IMAGENET1K_V1")
model.fc = nn.Linear(model.fc.in_features, 2)
model = model.to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)  # want: OPT001

model_conv = torchvision.models.resnet18(weights="IMAGENET1K_V1")
for param in model_conv.parameters():
    param.requires_grad = False
model_conv.fc = nn.Linear(model_conv.fc.in_features, 2)
model_conv = model_conv.to(device)
optimizer_conv = torch.optim.SGD(model_conv.fc.parameters(), lr=1e-3, momentum=0.9)


def train(model, optimizer, loader, epochs):
    for epoch in range(epochs):
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x.to(device)), y.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


train(model, optimizer, [], 25)
train(model_conv, optimizer_conv, [], 25)
