import torchvision


def get_backbone(name, pretrained=False):
    backbones = {
        "resnet18": torchvision.models.resnet18(pretrained=pretrained),
        "resnet50": torchvision.models.resnet50(pretrained=pretrained),
    }
    return backbones[name]
