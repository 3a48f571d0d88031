# The project's base class of its networks: an nn.Module.
import torch.nn as nn


class BaseModel(nn.Module):
    def trainable_parameters(self):
        return sum(p.numel() for p in self.parameters() if p.requires_grad)
