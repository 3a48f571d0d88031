# After its epochs, run() makes one pass that trains nothing to average
# the outputs (blind sample S24D's IRN, S28E's LogADEmpirical threshold):
# its per-batch copies are a share of a pass that runs once, in a
# function its caller runs once. The same copies in the validation pass
# of every epoch are reported.
import time
import torch
import torch.nn as nn


def run(loader, epochs=10):
    device = torch.device("cuda")
    model = nn.Sequential(nn.Linear(128, 1024), nn.ReLU(), nn.Linear(1024, 16)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)
    for epoch in range(epochs):
        model.train()
        for features in loader:
            loss = model(features.to(device)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        val_means = []
        with torch.no_grad():
            for features in loader:
                t_step = time.perf_counter()  # host work each step (timing, logging)
                val_means.append(model(features.to(device)).mean(0).cpu())  # want: SYNC001
        print(epoch, torch.stack(val_means).mean(0))
    means = []
    with torch.no_grad():
        for features in loader:
            means.append(model(features.to(device)).mean(0).cpu())
    return torch.stack(means).mean(0)


if __name__ == "__main__":
    run([])
