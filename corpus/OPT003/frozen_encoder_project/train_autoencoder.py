# The same autoencoder trained on fixed-size face crops: a convolutional
# training step, reported.
import torch

from models import FaceAutoencoder

device = torch.device("cuda")
autoencoder = FaceAutoencoder().to(device)
optimizer = torch.optim.Adam(autoencoder.parameters(), lr=1e-3, fused=True)


def train(loader, epochs):
    for epoch in range(epochs):  # want: OPT003
        for faces in loader:
            faces = faces.to(device, non_blocking=True)
            loss = torch.nn.functional.mse_loss(autoencoder(faces), faces)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
