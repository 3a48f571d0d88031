from .fused_act import FusedLeakyReLU
