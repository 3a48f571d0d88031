# A project's own copy of efficientnet_pytorch's model module: the same
# convolutional network, built by the same classmethods.
import torch.nn as nn

from .utils import load_weights, round_filters


class EfficientNet(nn.Module):
    def __init__(self, blocks_args=None, global_params=None):
        super().__init__()
        self._blocks = nn.ModuleList(build_blocks(blocks_args, global_params))
        self._fc = nn.Linear(round_filters(1280, global_params), global_params.num_classes)

    @classmethod
    def from_name(cls, model_name, **override_params):
        blocks_args, global_params = get_model_params(model_name, override_params)
        return cls(blocks_args, global_params)

    @classmethod
    def from_pretrained(cls, model_name, num_classes=1000, **kwargs):
        model = cls.from_name(model_name, num_classes=num_classes)
        load_weights(model, model_name)
        return model
