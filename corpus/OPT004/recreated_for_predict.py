# PyTorch's quickstart: the model is trained, saved, then built again to
# load the weights and predict. The finding (and the compile) belong to the
# model that is trained, not to the one built afterwards. Its state_dict is
# saved and loaded into a plain model, which a compiled module's prefixed
# keys (_orig_mod.) would break: the finding offers no compile line.
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.stack = nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 10))

    def forward(self, x):
        return self.stack(x)


model = NeuralNetwork().to(device)  # want: OPT004
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)


def train(dataloader, model, loss_fn, optimizer):
    model.train()
    for X, y in dataloader:
        loss = loss_fn(model(X.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


for t in range(5):
    train([], model, loss_fn, optimizer)
torch.save(model.state_dict(), "model.pth")

model = NeuralNetwork().to(device)
model.load_state_dict(torch.load("model.pth"))
model.eval()
