# gpuopt-env: target-gpu=h100
# A notebook's helper trains the model and hands it back
# (`model = train_and_test(model, ...)`): the model is built on the line
# before, which is where it would be compiled, not after its training.
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def train_and_test(model, data, criterion, optimizer, epochs):
    model.to(device)
    for epoch in range(epochs):
        for x, y in data:
            loss = criterion(model(x.to(device)), y.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return model


class SimpleMLP(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.hidden = nn.Linear(n_in, n_hidden)
        self.out = nn.Linear(n_hidden, n_out)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x)))


model = SimpleMLP(1024, 4096, 10)  # want: OPT004
optimizer = torch.optim.RMSprop(model.parameters(), lr=0.001)
model = train_and_test(model, [], nn.CrossEntropyLoss(), optimizer, 100)
