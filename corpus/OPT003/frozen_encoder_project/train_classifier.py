# A transformer classifier trained on face codes that a frozen
# convolutional encoder computes inside the Dataset, where a face detector
# (another convolutional network) crops the frames (blind sample S37E's
# deepfake classifier): the training step runs no convolution, so
# cudnn.benchmark has nothing to time there. Not reported.
import sys

import torch

from datasets import EncodedFaces
from models import FaceAutoencoder, FaceClassifier

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
autoencoder = FaceAutoencoder()
autoencoder.load_state_dict(torch.load(sys.argv[1], map_location=device))
autoencoder.to(device)
autoencoder.eval()

model = FaceClassifier().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
criterion = torch.nn.BCEWithLogitsLoss()
dataset = EncodedFaces(sys.argv[2:], autoencoder.encoder, device=device)
loader = torch.utils.data.DataLoader(dataset, batch_size=16, shuffle=True)

for epoch in range(20):
    for codes, labels in loader:
        codes, labels = codes.to(device), labels.to(device).float()
        loss = criterion(model(codes), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
