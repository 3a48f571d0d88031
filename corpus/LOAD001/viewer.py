# gpuopt-env: cpus=16
# An interactive viewer: each prediction is shown and the loop waits for a
# key (cv2.waitKey(0)), so no loader setting changes its pace. The
# training loader below is reported.
import cv2
import torch
from torch.utils.data import DataLoader
from torchvision.datasets import ImageFolder

device = torch.device("cuda")
model = torch.nn.Linear(8, 2).to(device)
optimizer = torch.optim.AdamW(model.parameters())
shown = DataLoader(ImageFolder("data/val"), batch_size=1)
train = DataLoader(ImageFolder("data/train"), batch_size=8)  # want: LOAD001


def view():
    model.eval()
    for idx, (x, y) in enumerate(shown):
        with torch.no_grad():
            scores = model(x.to(device))
        cv2.imshow("img", x[0].numpy())
        cv2.waitKey(0)


def fit():
    for x, y in train:
        loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    fit()
    view()
