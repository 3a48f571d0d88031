# Progress bars redraw their text every step: a tensor read there waits
# for the GPU on every step, as a print does.
import torch
from tqdm import tqdm
from tqdm.auto import tqdm as auto_tqdm

device = "cuda"
model = torch.nn.Linear(8, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, 10)
loader = [(torch.randn(4, 8), torch.randn(4, 1)) for _ in range(10)]

bar = tqdm(loader)
for x, y in bar:
    loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    bar.set_postfix(loss=loss.item())  # want: SYNC005

with auto_tqdm(total=len(loader)) as pbar:
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
        loss.backward()
        opt.step()
        pbar.set_description(f"loss {loss.item():.3f}")  # want: SYNC005
        pbar.set_postfix(lr=sched.get_last_lr()[0])  # a Python float: no sync
        pbar.update(1)
        if step % 50 == 0:
            pbar.set_postfix(loss=loss.item())  # every 50 steps: fine
