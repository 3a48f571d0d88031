# gpuopt-env: target-gpu=h100
# A course notebook's train_step(model: torch.nn.Module, ...) called with
# model=model_1, a class whose widths come through annotated __init__
# parameters (784 -> 10 -> 10): narrow, where autocast runs the step slower: no
# finding. model_0 is kept
# on the CPU: CUDA autocast has nothing to do there, no finding.
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class ModelV1(nn.Module):
    def __init__(self, input_shape: int, hidden_units: int, output_shape: int):
        super().__init__()
        self.layer_stack = nn.Sequential(nn.Flatten(), nn.Linear(in_features=input_shape, out_features=hidden_units), nn.ReLU(),
                                         nn.Linear(in_features=hidden_units, out_features=output_shape))

    def forward(self, x):
        return self.layer_stack(x)


def train_step(model: torch.nn.Module, data_loader, loss_fn, optimizer, device=device):
    model.train()
    for X, y in data_loader:
        X, y = X.to(device), y.to(device)
        y_pred = model(X)
        loss = loss_fn(y_pred, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


model_1 = ModelV1(input_shape=784, hidden_units=10, output_shape=10).to(device)
optimizer = torch.optim.SGD(params=model_1.parameters(), lr=0.1)
for epoch in range(3):
    train_step(data_loader=None, model=model_1, loss_fn=nn.CrossEntropyLoss(), optimizer=optimizer)


model_0 = ModelV1(input_shape=784, hidden_units=10, output_shape=10)
model_0.to("cpu")  # keep the baseline on the CPU
opt_0 = torch.optim.SGD(params=model_0.parameters(), lr=0.1)
for X, y in []:
    loss = nn.functional.cross_entropy(model_0(X), y)
    opt_0.zero_grad()
    loss.backward()
    opt_0.step()
