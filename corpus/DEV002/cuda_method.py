import torch
import torch.nn.functional as F
import torchvision
from torch.utils.data import DataLoader
from torchvision import transforms
from tqdm import tqdm


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(28 * 28, 10)

    def forward(self, x):
        return self.fc(x.flatten(1))


mnist = torchvision.datasets.MNIST("data", train=True, download=True, transform=transforms.ToTensor())
loader = DataLoader(mnist, batch_size=64, num_workers=2)
model = Net()
model.cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for step, (images, labels) in enumerate(tqdm(loader)):  # want: DEV002
	out = model(images.float())
	loss = F.cross_entropy(out, labels)
	loss.backward()
	optimizer.step()
	optimizer.zero_grad()
	if step % 100 == 0:
		print(step, loss.item(), len(labels))
