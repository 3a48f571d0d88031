"""Features cached as tensors: the examples are tokenised once, then held
in a TensorDataset."""
import torch
from torch.utils.data import TensorDataset


def load_examples(path):
    features = torch.load(path)
    input_ids = torch.tensor([f["input_ids"] for f in features], dtype=torch.long)
    labels = torch.tensor([f["label"] for f in features], dtype=torch.long)
    return TensorDataset(input_ids, labels)
