# gpuopt-env: torch=2.4
# A DistilBERT fine-tune whose epoch count reaches the training function
# as an argument (`train(num_epochs=3, ...)`): three epochs of thousands
# of transformer steps, where a worker restart is well under 1%. Silent.
# The small network's loader, trained for 3 epochs the same way, has
# short epochs: reported.
import torch
from torch.utils.data import DataLoader, TensorDataset
from transformers import AutoModelForSequenceClassification


def train(num_epochs, model, optimizer, loader):
    for epoch in range(num_epochs):
        for input_ids, labels in loader:
            loss = model(input_ids=input_ids.cuda(), labels=labels.cuda()).loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def train_small(num_epochs, model, optimizer, loader):
    for epoch in range(num_epochs):
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def main():
    model = AutoModelForSequenceClassification.from_pretrained("distilbert-base-uncased", num_labels=2).cuda()
    reviews = TensorDataset(torch.randint(0, 30522, (35000, 512)), torch.randint(0, 2, (35000,)))
    loader = DataLoader(reviews, batch_size=12, shuffle=True, num_workers=4)
    train(num_epochs=3, model=model, optimizer=torch.optim.Adam(model.parameters(), lr=5e-5), loader=loader)

    small = torch.nn.Linear(32, 2).cuda()
    points = TensorDataset(torch.randn(4096, 32), torch.randint(0, 2, (4096,)))
    small_loader = DataLoader(points, batch_size=256, shuffle=True, num_workers=4)  # want: LOAD003
    train_small(3, small, torch.optim.Adam(small.parameters()), small_loader)


if __name__ == "__main__":
    main()
