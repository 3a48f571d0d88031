# gpuopt-env: cpus=16
# Hugging Face's no-Trainer loop: the loader comes back from
# accelerator.prepare and is iterated under another name when resuming.
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def main(resume_step=None):
    accelerator = Accelerator()
    data = datasets.CIFAR10("data", download=True, transform=transforms.ToTensor())
    train_dataloader = DataLoader(data, shuffle=True, batch_size=64)  # want: LOAD001
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3072, 10))
    optimizer = torch.optim.AdamW(model.parameters())
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    for epoch in range(3):
        if resume_step is not None and epoch == 0:
            active_dataloader = accelerator.skip_first_batches(train_dataloader, resume_step)
        else:
            active_dataloader = train_dataloader
        for step, (x, y) in enumerate(active_dataloader):
            loss = torch.nn.functional.cross_entropy(model(x), y)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()


if __name__ == "__main__":
    main()
