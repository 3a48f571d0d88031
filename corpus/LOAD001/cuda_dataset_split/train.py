# The dataset, a class of a sibling module split by random_split, moves
# every sample to CUDA in __getitem__: workers would raise "Cannot
# re-initialize CUDA in forked subprocess" at the first sample (blind
# sample S20I's Cassava). Silent.
import torch
import torchvision.models as models
from torch.utils.data import DataLoader, random_split

from load_data import LeafDataset

dataset = LeafDataset([f"images/{i}.jpg" for i in range(21000)], [i % 5 for i in range(21000)])
train_size = int(0.8 * len(dataset))
train_dataset, val_dataset = random_split(dataset, [train_size, len(dataset) - train_size])
loader_train = DataLoader(train_dataset, batch_size=32, shuffle=True)
loader_eval = DataLoader(val_dataset, batch_size=64, shuffle=False)

model = models.resnet101(num_classes=5).to("cuda")
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(10):
    model.train()
    for images, labels in loader_train:
        loss = torch.nn.functional.cross_entropy(model(images.permute(0, 3, 1, 2)), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        for images, labels in loader_eval:
            model(images.permute(0, 3, 1, 2))
