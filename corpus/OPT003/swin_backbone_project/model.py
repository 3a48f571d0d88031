import timm
import torch.nn as nn


class AgeGenderNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = timm.create_model("swin_base_patch4_window7_224", pretrained=True, num_classes=0, features_only=True)
        self.head = nn.Sequential(nn.Conv2d(1024, 256, kernel_size=3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.age = nn.Linear(256, 1)

    def forward(self, x):
        return self.age(self.head(self.backbone(x)[-1].permute(0, 3, 1, 2)))


class ConvAgeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = timm.create_model("resnet50", pretrained=True, num_classes=0, features_only=True)
        self.head = nn.Sequential(nn.Conv2d(2048, 256, kernel_size=3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.age = nn.Linear(256, 1)

    def forward(self, x):
        return self.age(self.head(self.backbone(x)[-1]))
