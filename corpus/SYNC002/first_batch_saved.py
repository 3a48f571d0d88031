# The VAE example's test loop: the first batch is copied to the CPU to save
# an image, once; every step still syncs for the .item() alone.
import torch
from torch import nn

model = nn.Linear(4096, 4096).cuda()
# (The datasets live on the GPU: evaluation passes over a loader of host
# samples are left alone, see evaluation_over_loader.py.)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(64, 16, device="cuda")), batch_size=8)


def test():
    model.eval()
    test_loss = 0
    with torch.no_grad():
        for i, (data,) in enumerate(loader):
            data = data.cuda()
            recon = model(data)
            test_loss += nn.functional.mse_loss(recon, data).item()  # want: SYNC002
            if i == 0:
                torch.save(recon.cpu(), "first.pt")
    return test_loss / len(loader)
