"""An evaluation script that names a CUDA device only to load the weights.

The network is never moved and its output goes straight to `.numpy()`,
which raises on a CUDA tensor: this loop runs on the CPU, so the loader
feeds no GPU and worker advice is noise.
"""
import numpy as np
import torch
from torch.utils.data import DataLoader

from model import CNN
from data import test_set

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


def main():
    cnn = CNN()
    cnn.eval()
    cnn.load_state_dict(torch.load("model.pkl", map_location=device))
    loader = DataLoader(test_set, batch_size=1, shuffle=True)
    correct = 0
    for images, labels in loader:
        scores = cnn(images)
        guess = np.argmax(scores[0, :10].data.numpy())
        correct += int(guess == labels.numpy()[0])
    print(correct)


if __name__ == "__main__":
    main()
