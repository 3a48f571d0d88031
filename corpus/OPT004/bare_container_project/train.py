# A place-recognition model kept as a bare nn.Module() container whose
# encoder and pooling layer the project's training function calls one by
# one (blind sample S37V's NetVLAD trainers): the container has no
# forward, so compiling it compiles nothing and only prefixes its
# checkpoint keys. No torch.compile advice there. The same network as a
# module of its own, called whole, keeps it.
import torch

from engine import train
from models import FullNetwork, construct_model

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def main(loader, criterion, epochs):
    model = construct_model()
    model = model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-5, fused=True)
    for epoch in range(epochs):
        train(device, model, loader, criterion, optimizer)


def train_full(loader, criterion, epochs):
    net = FullNetwork().to(device)  # want: OPT004
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-5, fused=True)
    for epoch in range(epochs):
        for anchor, positive, negative in loader:
            batch = torch.cat([anchor, positive, negative]).to(device, non_blocking=True)
            loss = criterion(*net(batch).chunk(3))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
