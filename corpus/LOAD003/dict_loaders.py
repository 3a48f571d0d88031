# PyTorch's transfer-learning tutorial: the loaders live in a dict built by
# a comprehension, indexed by phase in every epoch; the datasets too, and
# reading their class names changes nothing.
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, models, transforms

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
image_datasets = {x: datasets.ImageFolder(x, transforms.ToTensor()) for x in ["train", "val"]}
dataloaders = {x: DataLoader(image_datasets[x], batch_size=4, shuffle=True, num_workers=4) for x in ["train", "val"]}  # want: LOAD003
dataset_sizes = {x: len(image_datasets[x]) for x in ["train", "val"]}
class_names = image_datasets["train"].classes


def train_model(model, criterion, optimizer, num_epochs=25):
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            model.train(phase == "train")
            for inputs, labels in dataloaders[phase]:
                inputs = inputs.to(device)
                labels = labels.to(device)
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    loss = criterion(model(inputs), labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
    return model


if __name__ == "__main__":
    model_ft = models.resnet18(weights="IMAGENET1K_V1").to(device)
    train_model(model_ft, torch.nn.CrossEntropyLoss(), torch.optim.SGD(model_ft.parameters(), lr=0.001))
