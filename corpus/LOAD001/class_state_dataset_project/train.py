# The dataset keeps its label list in a class attribute filled at run
# time: workers started by spawn or forkserver (macOS, Windows; Linux from
# Python 3.14) unpickle the dataset with an empty list and raise
# ValueError, so the fix starts them with fork (blind sample S39W).
import torch
import torchvision
from torch.utils.data import DataLoader
from torchvision import transforms

from styles import StyleImages


def main():
    data = StyleImages("train.csv", transforms.Compose([transforms.Resize((224, 224)), transforms.ToTensor()]))
    loader = DataLoader(data, batch_size=64, shuffle=True)  # want: LOAD001
    model = torchvision.models.resnet50(num_classes=len(StyleImages.labels)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, fused=True)
    for epoch in range(30):
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
