# gpuopt-env: torch=1.13
# A train_one_epoch that zeroes the gradients before its batch loop and
# again in every step (blind sample S19A's deep_sort): the zero_grad()
# before the loop runs once per epoch, so only the step's is reported.
import torch


def train_one_epoch(model, optimizer, data_loader, device):
    model.train()
    optimizer.zero_grad()
    for images, labels in data_loader:
        loss = torch.nn.functional.cross_entropy(model(images.to(device)), labels.to(device))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()  # want: OPT002
