import torch
import torch.nn as nn


class Embeddings(nn.Module):
    def __init__(self, hidden_size, patch_size=16, in_channels=3, img_size=448):
        super().__init__()
        self.patch_embeddings = nn.Conv2d(in_channels, hidden_size, kernel_size=patch_size, stride=patch_size)
        self.position_embeddings = nn.Parameter(torch.zeros(1, (img_size // patch_size) ** 2 + 1, hidden_size))
        self.cls_token = nn.Parameter(torch.zeros(1, 1, hidden_size))

    def forward(self, x):
        x = self.patch_embeddings(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1)
        return x + self.position_embeddings


class VisionTransformer(nn.Module):
    def __init__(self, hidden_size=768, num_classes=200):
        super().__init__()
        self.embeddings = Embeddings(hidden_size)
        layer = nn.TransformerEncoderLayer(hidden_size, 12, 3072, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 12)
        self.head = nn.Linear(hidden_size, num_classes)

    def forward(self, x):
        return self.head(self.encoder(self.embeddings(x))[:, 0])
