# A validation pass that keeps each batch's loss (loss.item() into a list)
# and shows it on the progress bar. The step waits for the GPU at the list
# append whatever the bar does, so moving the bar's read alone gains
# nothing: no SYNC005 in a loop that trains nothing (blind samples S27D,
# S30R). host_batch_read.py keeps its finding: there the other read is of
# a host value and waits for nothing.
import torch
from tqdm import tqdm


def validate(model, loader, criterion, device):
    model.eval()
    losses = []
    bar = tqdm(loader)
    with torch.no_grad():
        for images, labels in bar:
            images, labels = images.to(device, non_blocking=True), labels.to(device, non_blocking=True)
            loss = criterion(model(images), labels)
            losses.append(loss.item())
            bar.set_postfix_str("loss: %.4f" % loss.item())
    return sum(losses) / len(losses)


if __name__ == "__main__":
    net = torch.nn.Linear(8, 2).cuda()
    data = torch.utils.data.TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    print(validate(net, torch.utils.data.DataLoader(data, batch_size=16, pin_memory=True), torch.nn.CrossEntropyLoss(), "cuda"))
