# The project's utilities make CUDA the default tensor type when a GPU is
# there (blind sample S38O's knowledge-tracing collection): every factory
# of the project then builds on the device.
import torch

if torch.cuda.is_available():
    torch.set_default_tensor_type(torch.cuda.FloatTensor)
