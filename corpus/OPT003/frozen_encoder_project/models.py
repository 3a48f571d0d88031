import torch.nn as nn


class FaceAutoencoder(nn.Module):
    def __init__(self, channels=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, channels, 5, stride=2, padding=2), nn.ReLU(), nn.Conv2d(channels, 1, 5, stride=2, padding=2))
        self.decoder = nn.Sequential(nn.ConvTranspose2d(1, channels, 4, stride=2, padding=1), nn.ReLU(), nn.ConvTranspose2d(channels, 3, 4, stride=2, padding=1))

    def forward(self, x):
        return self.decoder(self.encoder(x))


class FaceClassifier(nn.Module):
    def __init__(self, features=1296, heads=8, layers=6):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model=features, nhead=heads, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=layers)
        self.head = nn.Linear(features, 1)

    def forward(self, frames):
        return self.head(self.encoder(frames).mean(1)).squeeze(1)
