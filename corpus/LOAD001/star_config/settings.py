# Settings every module of the project star-imports.
import torch

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
HOST = torch.device("cpu")
LEARNING_RATE = 1e-3
