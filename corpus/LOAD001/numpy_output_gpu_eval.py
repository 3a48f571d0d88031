"""The same evaluation with the network on the GPU: the output is brought
back with `.cpu()` before `.numpy()`, so the loop does feed the GPU."""
import numpy as np
import torch
from torch.utils.data import DataLoader

from model import CNN
from data import test_set

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


def main():
    cnn = CNN().to(device)
    cnn.eval()
    loader = DataLoader(test_set, batch_size=64, shuffle=False)  # want: LOAD001
    correct = 0
    for images, labels in loader:
        scores = cnn(images.to(device))
        guess = np.argmax(scores.data.cpu().numpy(), axis=1)
        correct += int((guess == labels.numpy()).sum())
    print(correct)


if __name__ == "__main__":
    main()
