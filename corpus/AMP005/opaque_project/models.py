# Networks built by name from a table: the walk cannot tell which one a
# run trains.
import functools

import torchvision

resnet34 = functools.partial(torchvision.models.resnet34, num_classes=1103)
densenet121 = functools.partial(torchvision.models.densenet121, num_classes=1103)
