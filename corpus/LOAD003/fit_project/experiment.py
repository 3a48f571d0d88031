# The experiment hands its loaders to trainer.fit (another module), which
# iterates them once per epoch through train_epoch and test_epoch.
import torch
from torch.utils.data import DataLoader
from torchvision.datasets import MNIST

from trainer import fit

cuda = torch.cuda.is_available()
train_loader = DataLoader(MNIST("data", train=True), batch_size=128, shuffle=True, num_workers=1, pin_memory=True)  # want: LOAD003
test_loader = DataLoader(MNIST("data", train=False), batch_size=128, num_workers=1, pin_memory=True)  # want: LOAD003
model = torch.nn.Linear(784, 10)
if cuda:
    model.cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
fit(train_loader, test_loader, model, torch.nn.CrossEntropyLoss(), optimizer, 20, cuda)
