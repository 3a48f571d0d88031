import torch.nn as nn


class LinearClassifier(nn.Module):
    def __init__(self, feat_dim=2048, num_classes=10):
        super(LinearClassifier, self).__init__()
        self.fc = nn.Linear(feat_dim, num_classes)

    def forward(self, features):
        return self.fc(features)
