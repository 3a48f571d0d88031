# A dtype conversion between the factory and the move: the factory is built
# on the device, the conversion stays.
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
batch_size = 8


def step():
    pad = torch.zeros(batch_size, 3, 2).float().to(device)  # want: XFER001
    # torch.tensor(data) copies host data either way (1.00-1.02× measured).
    ids = torch.tensor([1, 2, 3]).long().cuda()
    noise = torch.randn(batch_size, 16).half().to(device)  # want: XFER001
    # A conversion with an argument, or a method that is not a conversion: left alone.
    kept = torch.zeros(batch_size, 3).to(torch.float16).to(device)
    summed = torch.ones(batch_size, 3).sum(0).to(device)
    # A size passed as *size: device= goes after it.
    size = (3, 32, 32)
    x_i = torch.randn(batch_size, *size).to(device)  # want: XFER001
    # SupCon's mask: a reshape between the factory and the move stays.
    labels_mask = torch.arange(batch_size).view(-1, 1).to(device)  # want: XFER001
    rows = torch.ones(batch_size).unsqueeze(1).float().to(device)  # want: XFER001
    return pad, ids, noise, kept, summed, x_i, labels_mask, rows
